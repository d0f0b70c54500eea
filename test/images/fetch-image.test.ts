import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchImage } from '../../src/images/fetch-image.ts';
import { TINY_PNG } from '../../src/simulators/media.ts';

let server: Server;
let base: string;
const limits = () => ({ deadline: Date.now() + 5000, signal: new AbortController().signal });

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/ok.png') return res.writeHead(200, { 'content-type': 'image/png; charset=binary' }).end(TINY_PNG);
    if (req.url === '/declared-big') return res.writeHead(200, { 'content-length': String(10_000) }).end(Buffer.alloc(10_000));
    if (req.url === '/chunked-big') {
      res.writeHead(200, { 'content-type': 'image/png' });
      for (let i = 0; i < 10; i++) res.write(Buffer.alloc(1000));
      return res.end();
    }
    if (req.url === '/gzip.png') return res.writeHead(200, { 'content-type': 'image/png', 'content-encoding': 'gzip' }).end(gzipSync(TINY_PNG));
    if (req.url === '/gzip-big') return res.writeHead(200, { 'content-type': 'image/png', 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(100_000)));
    if (req.url === '/gzip-lie') return res.writeHead(200, { 'content-type': 'image/png', 'content-encoding': 'gzip' }).end(TINY_PNG);
    if (req.url === '/squash') return res.writeHead(200, { 'content-type': 'image/png', 'content-encoding': 'x-squash' }).end(TINY_PNG);
    if (req.url === '/slow') return setTimeout(() => res.end(TINY_PNG), 2000);
    res.writeHead(404).end('missing');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('fetchImage', () => {
  it('downloads the bytes and the media type', async () => {
    expect(await fetchImage(`${base}/ok.png`, limits())).toEqual({ bytes: TINY_PNG, contentType: 'image/png' });
  });

  it('answers 502 for a vendor URL that fails', async () => {
    await expect(fetchImage(`${base}/gone.png`, limits())).rejects.toMatchObject({ status: 502, code: 'image_fetch_failed' });
  });

  it('refuses images above the size bound, declared or streamed', async () => {
    await expect(fetchImage(`${base}/declared-big`, { ...limits(), maxBytes: 5000 })).rejects.toMatchObject({ code: 'image_too_large' });
    await expect(fetchImage(`${base}/chunked-big`, { ...limits(), maxBytes: 5000 })).rejects.toMatchObject({ code: 'image_too_large' });
  });

  it('decodes an image sent in a content coding, and bounds the decoded bytes', async () => {
    expect(await fetchImage(`${base}/gzip.png`, limits())).toEqual({ bytes: TINY_PNG, contentType: 'image/png' });
    // 100,000 bytes coded in ~130: the bound counts what the body decodes to.
    await expect(fetchImage(`${base}/gzip-big`, { ...limits(), maxBytes: 5000 })).rejects.toMatchObject({ code: 'image_too_large' });
  });

  it('answers 502 for a coding it cannot decode, or bytes that are not in their coding', async () => {
    await expect(fetchImage(`${base}/squash`, limits())).rejects.toMatchObject({ status: 502, code: 'image_fetch_failed', message: expect.stringContaining('content coding') });
    await expect(fetchImage(`${base}/gzip-lie`, limits())).rejects.toMatchObject({ status: 502, code: 'image_fetch_failed' });
  });

  it('gives up at the request’s deadline with 504', async () => {
    const started = Date.now();
    await expect(fetchImage(`${base}/slow`, { deadline: Date.now() + 100, signal: new AbortController().signal })).rejects.toMatchObject({ status: 504 });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('refuses URLs that are not http(s) without calling anything', async () => {
    await expect(fetchImage('file:///etc/passwd', limits())).rejects.toMatchObject({ status: 502 });
    await expect(fetchImage('not a url', limits())).rejects.toMatchObject({ status: 502 });
  });
});
