import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';
import { VENDOR_FIXTURES } from '../helpers/vendor-fixtures.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

/** A vendor answer whose bytes no JSON round trip would keep: odd spacing, key order, escapes, non-ASCII. */
const VENDOR_TEXT =
  '{ "object" : "chat.completion","id":"chatcmpl-bytes",\n  "created": 1.0e9, "model":"gpt-4o-mini",' +
  '"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"caf\\u00e9 – ✓ \\"quoted\\""}}],' +
  '\t"usage":{"prompt_tokens":2,"completion_tokens":3,"total_tokens":5}}';

describe('a same-protocol JSON answer', () => {
  it("reaches the client byte for byte as the vendor sent it", async () => {
    gw.sims.openai.reset();
    gw.sims.openai.failNext({ kind: 'status', status: 200, body: VENDOR_TEXT });
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-openai-chat', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.status).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.equals(Buffer.from(VENDOR_TEXT))).toBe(true);
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(VENDOR_TEXT)));
    expect(gw.sims.openai.received).toHaveLength(1);
    expect(JSON.parse(gw.sims.openai.received[0].body.toString()).model).toBe('gpt-4o-mini');
  });
});

describe('a same-protocol streamed request to a model the vendor knows by another name', () => {
  it('reaches the vendor once serialised with the vendor name and one usage request; the client sees no usage-only chunk', async () => {
    gw.sims.openai.reset();
    const body = { model: 'sim-openai-chat', stream: true, messages: [{ role: 'user', content: 'caf\u00e9 "x"' }], temperature: 0.5 };
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('data: [DONE]');
    expect(text).not.toContain('"choices":[]');
    expect(gw.sims.openai.received).toHaveLength(1);
    const sent = { ...body, model: 'gpt-4o-mini' };
    expect(gw.sims.openai.received[0].body.toString()).toBe(`${JSON.stringify(sent).slice(0, -1)},"stream_options":{"include_usage":true}}`);
  });
});

describe('a same-protocol stream whose usage the gateway asked for', () => {
  it('reaches a client that did not ask byte for byte as OpenAI answers one (no usage chunk, no null usage), also from a vendor that frames it by length', async () => {
    // OpenAI's stream with include_usage (a verified transcript): every chunk carries "usage":null, then a usage chunk.
    const withUsage = readFileSync(`${VENDOR_FIXTURES}/openai/chat-stream.sse`, 'utf8');
    const withoutUsage = withUsage.replace(/data: \{[^\n]*"choices":\[\],[^\n]*\n\n/, '').replaceAll(',"usage":null', '');
    gw.sims.openai.reset();
    gw.sims.openai.failNext({ kind: 'status', status: 200, body: withUsage, headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
    const event = gw.nextEvent();
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-openai-chat', stream: true, messages: [{ role: 'user', content: 'x' }] }),
    });
    // Framed by its own chunks: the vendor's content-length counted the bytes the gateway took out.
    expect(response.headers.get('content-length')).toBeNull();
    expect(await response.text()).toBe(withoutUsage);
    expect(withoutUsage).not.toContain('"usage"');
    expect(JSON.parse(gw.sims.openai.received[0].body.toString()).stream_options).toEqual({ include_usage: true });
    expect((await event).usage).toMatchObject({ inputTokens: 19, outputTokens: 10 });
  });
});
