import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defineChatBody, defineMessagesBody, defineUploadBody } from '../../bench/bodies.ts';
import { readFirstJsonLine, startNodeProcess } from '../../bench/processes.ts';
import { summarizeChatStream } from '../../bench/scenarios/checks.ts';
import { defineStaticAnswers, STREAM_CONTENT_EVENTS } from '../../bench/static-answers.ts';
import { createStaticVendorListener } from '../../bench/static-vendor.ts';

const KEY = 'sk-static-vendor-test';
const ANSWERS = defineStaticAnswers();

/** The static vendor's listener on a local port, recording what it received. */
describe('the static fast vendor', () => {
  let server: Server;
  let origin: string;
  const received: { url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const post = (path: string, headers: Record<string, string>, body: string | Buffer) =>
    request(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const bearer = { authorization: `Bearer ${KEY}` };

  beforeAll(async () => {
    server = createServer(createStaticVendorListener({ key: KEY, onRequest: (req, body) => received.push({ url: req.url!, headers: req.headers, body: body.toString() }) }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    received.length = 0;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers a chat with the canned completion, byte for byte, with its content length', async () => {
    const body = defineChatBody('gpt-4o-mini', false);
    const response = await post('/v1/chat/completions', bearer, body);
    const bytes = Buffer.from(await response.body.arrayBuffer());
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['content-length']).toBe(String(ANSWERS.chat.length));
    expect(bytes.equals(ANSWERS.chat)).toBe(true);
    expect(JSON.parse(bytes.toString())).toMatchObject({ object: 'chat.completion', usage: { prompt_tokens: 21, completion_tokens: 15, total_tokens: 36 } });
    expect(received).toEqual([{ url: '/v1/chat/completions', headers: expect.objectContaining(bearer), body }]);
  });

  it('streams the canned OpenAI chat stream, with the usage chunk only when the request asks for it', async () => {
    const plain = await post('/v1/chat/completions', bearer, defineChatBody('gpt-4o-mini', true));
    const plainBytes = Buffer.from(await plain.body.arrayBuffer());
    expect(plain.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(plain.headers['transfer-encoding']).toBe('chunked');
    expect(plainBytes.equals(ANSWERS.chatStream)).toBe(true);
    expect(summarizeChatStream(plainBytes.toString())).toEqual({ chunks: STREAM_CONTENT_EVENTS + 2, contentChunks: STREAM_CONTENT_EVENTS, done: true });

    const asked = JSON.stringify({ ...JSON.parse(defineChatBody('gpt-4o-mini', true)), stream_options: { include_usage: true } });
    const withUsage = Buffer.from(await (await post('/v1/chat/completions', bearer, asked)).body.arrayBuffer());
    expect(withUsage.equals(ANSWERS.chatStreamWithUsage)).toBe(true);
    const events = withUsage.toString().split('\n\n').filter(Boolean);
    expect(JSON.parse(events.at(-2)!.slice('data: '.length))).toMatchObject({ choices: [], usage: { total_tokens: 36 } });
    expect(received.map((r) => r.body)).toEqual([defineChatBody('gpt-4o-mini', true), asked]);
  });

  it('streams the canned Anthropic messages stream to x-api-key, as many text deltas as the chat stream has content chunks', async () => {
    const body = defineMessagesBody('bench-claude');
    const response = await post('/v1/messages', { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' }, body);
    const bytes = Buffer.from(await response.body.arrayBuffer());
    expect(response.statusCode).toBe(200);
    expect(bytes.equals(ANSWERS.messageStream)).toBe(true);
    const text = bytes.toString();
    expect(text.match(/event: content_block_delta/g)).toHaveLength(STREAM_CONTENT_EVENTS);
    expect(text.startsWith('event: message_start\n')).toBe(true);
    expect(text.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
    expect(received[0]).toMatchObject({ url: '/v1/messages', headers: expect.objectContaining({ 'x-api-key': KEY }), body });
    expect(JSON.parse(body)).toMatchObject({ model: 'bench-claude', stream: true, max_tokens: 64, system: expect.stringContaining('helpful') });
  });

  it('answers a non-streamed message with the canned message', async () => {
    const body = JSON.stringify({ ...JSON.parse(defineMessagesBody('bench-claude')), stream: false });
    const response = await post('/v1/messages', { 'x-api-key': KEY }, body);
    expect(Buffer.from(await response.body.arrayBuffer()).equals(ANSWERS.message)).toBe(true);
    expect(received.map((r) => r.body)).toEqual([body]);
  });

  it('drains an upload and answers the canned transcription', async () => {
    const response = await post('/v1/audio/transcriptions', { ...bearer, 'content-type': 'multipart/form-data; boundary=----bench-boundary-7MA4YWxkTrZu0gW' }, defineUploadBody('whisper-1', 200_000));
    expect(response.statusCode).toBe(200);
    expect(Buffer.from(await response.body.arrayBuffer()).equals(ANSWERS.transcription)).toBe(true);
    expect(received.map((r) => r.url)).toEqual(['/v1/audio/transcriptions']);
  });

  it('refuses a wrong key with 401 on both protocols, and an unknown path with 404', async () => {
    const wrong = await post('/v1/chat/completions', { authorization: 'Bearer sk-wrong' }, defineChatBody('gpt-4o-mini', false));
    expect(wrong.statusCode).toBe(401);
    expect(((await wrong.body.json()) as any).error.code).toBe('invalid_api_key');
    const bearerOnMessages = await post('/v1/messages', bearer, defineMessagesBody('bench-claude'));
    expect(bearerOnMessages.statusCode).toBe(401);
    await bearerOnMessages.body.dump();
    const unknown = await post('/v1/embeddings', bearer, '{}');
    expect(unknown.statusCode).toBe(404);
    await unknown.body.dump();
    expect(received.map((r) => r.url)).toEqual(['/v1/chat/completions', '/v1/messages']);
  });
});

describe('the static vendor script', () => {
  it('prints its OpenAI base URL and origin once listening, and serves the canned chat there', async () => {
    const proc = startNodeProcess({ name: 'static vendor', args: ['bench/static-vendor.ts', '--key', KEY] });
    try {
      const { url, origin } = await readFirstJsonLine<{ url: string; origin: string }>(proc);
      expect(url).toBe(`${origin}/v1`);
      expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await request(`${url}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: defineChatBody('gpt-4o-mini', false) });
      expect(Buffer.from(await response.body.arrayBuffer()).equals(ANSWERS.chat)).toBe(true);
    } finally {
      await proc.stop();
    }
  });
});
