import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endStream, startStream, writeStream } from '../../src/runtime/respond.ts';
import type { RequestContext } from '../../src/runtime/types.ts';

/** A server that answers every request with one stream through startStream/writeStream/endStream. */
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const ctx = { res, headers: { 'x-request-id': 'req-1', 'cache-control': 'no-store' }, startedAt: 0 } as unknown as RequestContext;
    startStream(ctx, 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    writeStream(ctx, 'data: 1\n\n');
    endStream(ctx, 'data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function fetchRaw(): Promise<{ rawHeaders: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    request(`${origin}/`, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ rawHeaders: res.rawHeaders, body }));
    }).on('error', reject).end();
  });
}

describe('starting a stream', () => {
  it("sends each header once, the request's own headers winning over the stream's defaults", async () => {
    const { rawHeaders, body } = await fetchRaw();
    const names = rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
    expect(names.filter((name) => name === 'cache-control')).toHaveLength(1);
    const value = (name: string) => rawHeaders[rawHeaders.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === name) + 1];
    expect(value('cache-control')).toBe('no-store');
    expect(value('content-type')).toBe('text/event-stream');
    expect(value('x-request-id')).toBe('req-1');
    expect(body).toBe('data: 1\n\ndata: [DONE]\n\n');
  });
});
