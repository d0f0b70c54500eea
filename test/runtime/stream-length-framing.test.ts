import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_KEYS } from '../../src/protocols/simulators.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

/** Sends a streamed chat request whose vendor answers `stream` framed by its content-length; returns what the client got. */
async function streamFramedByLength(stream: string) {
  gw.sims.openai.failNext({ kind: 'status', status: 200, body: stream, headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
  const response = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'sim-openai-chat', stream: true, messages: [{ role: 'user', content: 'x' }] }),
    signal: AbortSignal.timeout(5000),
  });
  return { length: response.headers.get('content-length'), text: await response.text() };
}

describe('a stream the vendor frames by its content-length', () => {
  it('reaches the client whole, chunked, when the gateway drops the usage chunk it asked for (the vendor length would hang the client)', async () => {
    const content = 'data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n';
    const usage = 'data: {"choices":[],"usage":{"prompt_tokens":2,"completion_tokens":1,"total_tokens":3}}\n\n';
    const done = 'data: [DONE]\n\n';
    const event = gw.nextEvent();
    expect(await streamFramedByLength(content + usage + done)).toEqual({ length: null, text: content + done });
    expect((await event).usage).toMatchObject({ inputTokens: 2, outputTokens: 1 });
  });

  it('reaches the client whole, chunked, when an error event loses the vendor key', async () => {
    const error = `data: {"error":{"message":"bad key ${SIMULATOR_KEYS.openai} here","type":"server_error"}}\n\n`;
    const { length, text } = await streamFramedByLength(error);
    expect(length).toBeNull();
    expect(text).not.toContain(SIMULATOR_KEYS.openai);
    expect(text.endsWith(' here","type":"server_error"}}\n\n')).toBe(true);
  });
});
