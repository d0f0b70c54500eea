import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

const LIMIT = 16 * 1024;
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => ({ ...config, server: { ...config.server, bodyLimitBytes: LIMIT } }));
});
afterAll(() => gw.close());
beforeEach(() => {
  for (const sim of [gw.sims.openai, gw.sims.anthropic, gw.sims.gemini]) sim.reset();
});

type Style = 'openai' | 'anthropic' | 'gemini';
const ROUTES: Record<Style, { path: string; headers: Record<string, string> }> = {
  openai: { path: '/v1/chat/completions', headers: {} },
  anthropic: { path: '/v1/messages', headers: { 'anthropic-version': '2023-06-01' } },
  gemini: { path: '/v1beta/models/sim-gemini-chat:generateContent', headers: {} },
};
const STYLES = Object.keys(ROUTES) as Style[];

/** Sends `chunks` as the request body; without `contentLength` it goes out chunked. Resolves with the answer. */
function post(style: Style, chunks: string[], contentLength?: number): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  const url = new URL(gw.url + ROUTES[style].path);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${gw.key}`,
        'content-type': 'application/json',
        ...ROUTES[style].headers,
        ...(contentLength === undefined ? {} : { 'content-length': String(contentLength) }),
      },
    });
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(Buffer.concat(parts).toString()) }));
    });
    // The gateway may answer and close before the whole body is sent: that write error is expected.
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    (async () => {
      for (const chunk of chunks) {
        if (req.destroyed) return;
        req.write(chunk);
        await new Promise((next) => setImmediate(next));
      }
      req.end();
    })();
  });
}

/** The error code of a reply in any style: the OpenAI body names it; the others are checked by type/status. */
function expectBadRequest(style: Style, reply: { status: number; body: any }, message: RegExp) {
  expect(reply.status).toBe(400);
  if (style === 'openai') expect(reply.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json', param: null });
  if (style === 'anthropic') expect(reply.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  if (style === 'gemini') expect(reply.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
  expect(reply.body.error.message).toMatch(message);
  expect(gw.sims.openai.received.length + gw.sims.anthropic.received.length + gw.sims.gemini.received.length).toBe(0);
}

const NOT_OBJECTS = ['[]', 'null', '42', '"x"', 'true', '[{"model":"sim-openai-chat"}]'];

describe.each(STYLES)('bodies the %s style refuses', (style) => {
  it.each(NOT_OBJECTS)('%s is 400 invalid_json: the body must be a JSON object', async (text) => {
    expectBadRequest(style, await post(style, [text], Buffer.byteLength(text)), /^The request body must be a JSON object\.$/);
  });

  it.each(['{"model": "x", ', '', 'model=x', '{"a":1}}'])('malformed JSON %j is 400 invalid_json', async (text) => {
    expectBadRequest(style, await post(style, [text], Buffer.byteLength(text)), /^The request body is not valid JSON: /);
  });

  it('an oversized body with content-length is 413 request_too_large, and the connection is closed', async () => {
    const text = JSON.stringify({ padding: 'x'.repeat(LIMIT) });
    const reply = await post(style, [text], Buffer.byteLength(text));
    expectTooLarge(style, reply);
  });

  it('an oversized CHUNKED body (no content-length) is 413 request_too_large too, not a read failure', async () => {
    const piece = 'x'.repeat(4096);
    const reply = await post(style, ['{"padding":"', ...Array.from({ length: 8 }, () => piece), '"}']);
    expectTooLarge(style, reply);
  });

  it('a body of exactly the limit is served, one byte more is 413, with content-length or chunked', async () => {
    const exact = getChatBody(style, LIMIT);
    expect(Buffer.byteLength(exact)).toBe(LIMIT);
    expect((await post(style, [exact], LIMIT)).status).toBe(200);
    expect((await post(style, [exact.slice(0, 100), exact.slice(100)])).status).toBe(200);
    const over = getChatBody(style, LIMIT + 1);
    expectTooLarge(style, await post(style, [over], LIMIT + 1));
    expectTooLarge(style, await post(style, [over.slice(0, 100), over.slice(100)]));
  });

  it('a chunked body under the limit is read whole', async () => {
    const text = getChatBody(style, 300);
    expect((await post(style, [text.slice(0, 10), text.slice(10)])).status).toBe(200);
  });
});

/** A valid chat body of the style, padded with spaces (JSON whitespace) to exactly `bytes` bytes. */
function getChatBody(style: Style, bytes: number): string {
  const body = style === 'gemini'
    ? { contents: [{ role: 'user', parts: [{ text: 'x' }] }] }
    : { model: style === 'openai' ? 'sim-openai-chat' : 'sim-anthropic-chat', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] };
  const text = JSON.stringify(body);
  return text.slice(0, -1) + ' '.repeat(bytes - Buffer.byteLength(text)) + '}';
}

function expectTooLarge(style: Style, reply: { status: number; headers: Record<string, unknown>; body: any }) {
  expect(reply.status).toBe(413);
  expect(reply.headers.connection).toBe('close');
  if (style === 'openai') expect(reply.body.error).toMatchObject({ type: 'invalid_request_error', code: 'request_too_large' });
  if (style === 'anthropic') expect(reply.body).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
  if (style === 'gemini') expect(reply.body.error).toMatchObject({ code: 413, status: 'INVALID_ARGUMENT' });
  expect(reply.body.error.message).toBe(`The request body exceeds the limit of ${LIMIT} bytes.`);
}
