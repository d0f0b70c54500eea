import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS } from '../../src/routing/retry-after.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

/** Retry-After on the passthrough path follows the translated path's rule: whole seconds read strictly, garbage dropped. */
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());
beforeEach(() => gw.sims.openai.reset());

/** The vendor's chat answer (its content does not matter here, only the header beside it). */
const COMPLETION = { id: 'chatcmpl-ra', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] };
const IN_AN_HOUR = () => new Date(Date.now() + 3_600_000).toUTCString();

/** A passthrough chat call (OpenAI style to the OpenAI vendor) whose vendor answers `status` with this Retry-After. */
async function callWith(status: number, retryAfter: string) {
  gw.sims.openai.failNext({ kind: 'status', status, body: status === 200 ? COMPLETION : undefined, headers: { 'retry-after': retryAfter } });
  const response = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
  });
  await response.arrayBuffer();
  expect(gw.sims.openai.received).toHaveLength(1);
  expect(gw.sims.openai.received[0].url).toBe('/v1/chat/completions');
  return { status: response.status, retryAfter: response.headers.get('retry-after') };
}

describe('Retry-After relayed on the passthrough path', () => {
  it.each([
    ['7', '7'],
    ['1.5', '2'],
    ['0.2', '1'],
    ['Wed, 21 Oct 2015 07:28:00 GMT', '0'],
    ['99999999999', String(MAX_RETRY_AFTER_MS / 1000)],
    ['soon', null],
    ['-3', null],
    ['Wednesday, 21-Oct-15 07:28:00 GMT', null],
  ])('a 200 with Retry-After %j reaches the client as %j', async (sent, expected) => {
    expect(await callWith(200, sent)).toEqual({ status: 200, retryAfter: expected });
  });

  it('an HTTP date is whole seconds from now', async () => {
    const { retryAfter } = await callWith(200, IN_AN_HOUR());
    expect(Number(retryAfter)).toBeGreaterThan(3590);
    expect(Number(retryAfter)).toBeLessThanOrEqual(3600);
  });

  it.each([
    ['1.5', '2'],
    ['soon', '1'],
  ])('a 429 with Retry-After %j is answered with %j, the same rule', async (sent, expected) => {
    expect(await callWith(429, sent)).toEqual({ status: 429, retryAfter: expected });
  });

  it('any printable value reaches the client as whole delay-seconds within a day, or not at all (property-based)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.stringMatching(/^[\x20-\x7e]{0,30}$/), fc.double({ min: -10, max: 1e12, noNaN: true }).map(String)), async (sent) => {
        gw.sims.openai.reset();
        const { status, retryAfter } = await callWith(200, sent);
        expect(status).toBe(200);
        if (retryAfter !== null) {
          expect(retryAfter).toMatch(/^\d+$/);
          expect(Number(retryAfter)).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS / 1000);
        }
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});
