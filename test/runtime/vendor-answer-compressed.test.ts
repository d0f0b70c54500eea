/**
 * A vendor may compress its answer though the gateway sent no `accept-encoding` (RFC 9110 12.5.3: with no such
 * header every coding is acceptable). The gateway decodes it wherever the answer goes (piped whole, piped as a
 * stream through the usage tap, parsed, translated), so the client gets the vendor's plain bytes, never coded
 * bytes framed by the coded length, and the usage is read. An answer the gateway cannot decode is the vendor's
 * failure (502), not garbage for the client.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { brotliCompressSync, createGzip, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageEvent } from '../../src/runtime/types.ts';
import { SIMULATOR_CLIENT_KEY } from '../../src/simulate.ts';
import { startOwnVendorGateway, type OwnVendorGateway } from '../helpers/start-own-vendor-gateway.ts';

const CODERS: Record<string, (bytes: Buffer) => Buffer> = {
  gzip: (bytes) => gzipSync(bytes),
  'x-gzip': (bytes) => gzipSync(bytes),
  deflate: (bytes) => deflateSync(bytes),
  br: (bytes) => brotliCompressSync(bytes),
  'deflate, gzip': (bytes) => gzipSync(deflateSync(bytes)),
  GZIP: (bytes) => gzipSync(bytes),
};

/** How the vendor codes its next answers: a name of CODERS, or `[name, raw bytes]` sent as they are. */
let coding: string | [string, Buffer] = 'gzip';
/** Deltas in the stream answer beyond the first (a long answer codes to a few bytes of what it decodes to). */
let extraDeltas = 0;
/** Text added to the whole answer's message: random text codes to about its own size, many coded reads. */
let filler = '';
const received: { acceptEncoding?: string }[] = [];
let vendor: Server;
let gw: OwnVendorGateway;

const USAGE = { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 };
const TEXT = 'A plain answer, compressed on its way. '.repeat(40);

function answer(stream: boolean): string {
  const message = { role: 'assistant', content: TEXT + filler };
  if (!stream) return JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'gz', choices: [{ index: 0, message, finish_reason: 'stop' }], usage: USAGE });
  const chunk = (delta: object, finish: string | null) => ({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gz', choices: [{ index: 0, delta, finish_reason: finish }] });
  const delta = `data: ${JSON.stringify(chunk({ content: TEXT }, null))}\n\n`;
  const events = [chunk(message, null), chunk({}, 'stop'), { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gz', choices: [], usage: USAGE }];
  const [first, ...rest] = events.map((event) => `data: ${JSON.stringify(event)}\n\n`);
  return `${first}${delta.repeat(extraDeltas)}${rest.join('')}data: [DONE]\n\n`;
}

beforeAll(async () => {
  vendor = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk)).on('end', () => {
      received.push({ acceptEncoding: req.headers['accept-encoding'] });
      const stream = JSON.parse(body).stream === true;
      const [name, bytes] = typeof coding === 'string' ? [coding, CODERS[coding](Buffer.from(answer(stream)))] : coding;
      res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json', 'content-encoding': name, 'content-length': bytes.length });
      // Written in two reads, the second a tick later: a coded answer is decoded across reads.
      res.write(bytes.subarray(0, bytes.length >> 1));
      setImmediate(() => res.end(bytes.subarray(bytes.length >> 1)));
    });
  });
  await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
  gw = await startOwnVendorGateway('gz', `http://127.0.0.1:${(vendor.address() as AddressInfo).port}/v1`);
});
afterAll(async () => {
  await gw.close();
  await new Promise((resolve) => vendor.close(resolve));
});

/** Sends a chat (OpenAI style: passthrough) or a message (Anthropic style: translated) and reads the whole answer. */
async function send(style: 'openai' | 'anthropic', stream: boolean): Promise<{ status: number; headers: Headers; text: string; event: UsageEvent }> {
  const event = gw.nextEvent();
  const anthropic = style === 'anthropic';
  const response = await fetch(`${gw.url}${anthropic ? '/v1/messages' : '/v1/chat/completions'}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SIMULATOR_CLIENT_KEY}`, 'content-type': 'application/json', 'accept-encoding': 'identity' },
    // The OpenAI client asks for the usage event itself: the gateway then passes the vendor's stream as it is.
    body: JSON.stringify({ model: 'gz-chat', stream, ...(anthropic ? { max_tokens: 50 } : stream ? { stream_options: { include_usage: true } } : {}), messages: [{ role: 'user', content: 'hi' }] }),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, headers: response.headers, text: await response.text(), event: await event };
}

describe('a vendor answer compressed unasked', () => {
  it.each(Object.keys(CODERS).flatMap((name) => [[name, false], [name, true]] as const))('coded %s (stream %s) reaches an OpenAI client decoded, its usage read', async (name, stream) => {
    coding = name;
    const { status, headers, text, event } = await send('openai', stream);
    expect(status).toBe(200);
    expect(headers.get('content-encoding')).toBeNull();
    expect(text).toBe(answer(stream));
    expect(event.usage).toMatchObject({ inputTokens: 7, outputTokens: 3 });
    expect(received.at(-1)?.acceptEncoding).toBeUndefined();
  });

  it.each([false, true])('coded gzip (stream %s) is translated for an Anthropic client', async (stream) => {
    coding = 'gzip';
    const { status, text, event } = await send('anthropic', stream);
    expect(status).toBe(200);
    expect(text).toContain(JSON.stringify(TEXT).slice(1, 40));
    if (stream) expect(text).toContain('event: message_stop');
    else expect(JSON.parse(text)).toMatchObject({ type: 'message', content: [{ type: 'text', text: TEXT }], usage: { input_tokens: 7, output_tokens: 3 } });
    expect(event.usage).toMatchObject({ inputTokens: 7, outputTokens: 3 });
  });

  it.each([
    ['an unknown coding', ['x-squash', Buffer.from('{"id":"c1"}')]],
    ['bytes that are not what the coding says', ['gzip', Buffer.from('not gzip at all, but the vendor says so')]],
    ['a coded answer cut short', ['gzip', gzipSync(Buffer.from(answer(false))).subarray(0, 40)]],
  ] as const)('is a 502 in the caller\'s style for %s', async (_, raw) => {
    coding = [raw[0], Buffer.from(raw[1])];
    for (const style of ['openai', 'anthropic'] as const) {
      const { status, text } = await send(style, false);
      expect(status).toBe(502);
      const body = JSON.parse(text);
      if (style === 'anthropic') expect(body).toMatchObject({ type: 'error', error: { type: 'api_error' } });
      else expect(body.error.code).toBe('upstream_invalid_response');
    }
  });
});

describe('a large coded answer', () => {
  it('that codes to about its own size arrives whole: the vendor, paused while the decoder is full, is resumed as it drains', async () => {
    coding = 'gzip';
    filler = randomBytes(3 * 1024 * 1024).toString('base64');
    try {
      const { status, text } = await send('openai', false);
      expect(status).toBe(200);
      expect(text).toBe(answer(false));
    } finally {
      filler = '';
    }
  });
});

describe('a small coded answer that decodes to more than the gateway reads whole', () => {
  it('is a 502 once 128 MiB are read, not a process out of memory', async () => {
    const gzip = createGzip();
    const coded: Buffer[] = [];
    gzip.on('data', (chunk: Buffer) => coded.push(chunk));
    const zeros = Buffer.alloc(1024 * 1024, 0x20);
    for (let mib = 0; mib < 160; mib++) gzip.write(zeros);
    gzip.end();
    await once(gzip, 'end');
    coding = ['gzip', Buffer.concat(coded)];
    const { status, text } = await send('anthropic', false);
    expect(status).toBe(502);
    expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'api_error', message: expect.stringContaining('more than 128 MiB') } });
  });
});

describe('a long coded stream to a client that stops reading', () => {
  it('arrives whole once the client reads again: the decoded bytes wait, none lost or doubled', async () => {
    coding = 'gzip';
    extraDeltas = 12_000; // ~22 MB decoded: more than the sockets between gateway and client hold
    try {
      const event = gw.nextEvent();
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        const body = JSON.stringify({ model: 'gz-chat', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] });
        request(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${SIMULATOR_CLIENT_KEY}`, 'content-type': 'application/json' } }, resolve)
          .on('error', reject)
          .end(body);
      });
      response.pause();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const chunks: Buffer[] = [];
      for await (const chunk of response) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).toString()).toBe(answer(true));
      expect((await event).usage).toMatchObject({ inputTokens: 7, outputTokens: 3 });
    } finally {
      extraDeltas = 0;
    }
  });
});
