/**
 * A stream the vendor cuts after it started ends with the client's in-stream error, and is charged an
 * estimate (marked `estimated`) instead of the partial counts of its first events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

const MESSAGES = [{ role: 'user', content: 'tell me a long story' }];

async function streamOnce(path: string, headers: Record<string, string>, body: object): Promise<string> {
  const response = await fetch(`${gw.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return response.text();
}

describe('a stream the vendor cuts after it started', () => {
  it('passed through (messages client, Anthropic vendor): the client gets the in-stream error, the usage is estimated above the partial count', async () => {
    gw.sims.anthropic.failNext({ kind: 'reset-mid-stream', afterEvents: 4 });
    const event = gw.nextEvent();
    const text = await streamOnce('/v1/messages', { 'x-api-key': gw.key, 'anthropic-version': '2023-06-01' }, { model: 'claude-sonnet-4-6', max_tokens: 200, stream: true, messages: MESSAGES });
    expect(text).toContain('event: error');
    const { usage } = await event;
    expect(usage.estimated).toBe(true);
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(1);
  });

  it('translated (OpenAI client, Anthropic vendor): the client gets the in-stream error, the usage is estimated above the partial count', async () => {
    gw.sims.anthropic.failNext({ kind: 'reset-mid-stream', afterEvents: 4 });
    const event = gw.nextEvent();
    const text = await streamOnce('/v1/chat/completions', { authorization: `Bearer ${gw.key}` }, { model: 'claude-sonnet-4-6', stream: true, messages: MESSAGES });
    expect(text).toContain('"error"');
    const { usage } = await event;
    expect(usage.estimated).toBe(true);
    expect(usage.outputTokens).toBeGreaterThan(1);
  });

  it('a stream that finishes keeps the vendor counts, not estimated', async () => {
    const event = gw.nextEvent();
    const text = await streamOnce('/v1/messages', { 'x-api-key': gw.key, 'anthropic-version': '2023-06-01' }, { model: 'claude-sonnet-4-6', max_tokens: 200, stream: true, messages: MESSAGES });
    expect(text).toContain('event: message_stop');
    const { usage } = await event;
    expect(usage.estimated).toBeUndefined();
    expect(usage.outputTokens).toBeGreaterThan(0);
  });
});
