import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

/**
 * A vendor that answers HTTP 499 itself (nginx's "client closed request", sent back by a hostile or broken
 * vendor) is a vendor answer like any other: the client gets it in its style at once, whole or streamed.
 * The gateway knows its own client left by the error's code, not by the status 499 (the client used to get
 * no answer at all, its connection held until it gave up).
 */
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

describe('a vendor answering 499', () => {
  it.each([
    ['sim-openai-chat', 'openai', false],
    ['sim-openai-chat', 'openai', true],
    ['sim-anthropic-chat', 'anthropic', false],
    ['sim-anthropic-chat', 'anthropic', true],
  ] as const)('is answered to the client (%s of the %s simulator, stream %s)', async (model, vendor, stream) => {
    gw.sims[vendor].failNext({ kind: 'status', status: 499, body: { error: { message: 'closed', type: 'invalid_request_error' } } });
    const event = gw.nextEvent();
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(response.status).toBe(499);
    expect(JSON.parse(await response.text()).error).toMatchObject({ message: 'closed' });
    expect((await event).status).toBe(499);
    expect(gw.sims[vendor].received.length).toBeGreaterThan(0);
  });
});
