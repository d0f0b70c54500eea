import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach } from 'vitest';
import { GatewayError } from '../../src/errors.ts';

/**
 * What the readMultipartModel tests share: forms, local servers (closed after each test), a chunked poster and a
 * temporary directory per test. Importing it registers the per-test set-up and clean-up in the importing file.
 */
export const BOUNDARY = '----gateway-test-boundary-7MA4YWxkTrZu0gW';
export const MB = 1024 * 1024;

export interface Part {
  name: string;
  value?: string;
  filename?: string;
  data?: Buffer;
}

export function buildForm(parts: Part[], boundary = BOUNDARY): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const file = part.filename ? `; filename="${part.filename}"\r\nContent-Type: application/octet-stream` : '';
    pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n\r\n`));
    pieces.push(part.data ?? Buffer.from(part.value ?? ''));
    pieces.push(Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(pieces);
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;
const servers: Server[] = [];

export async function startServer(handler: Handler): Promise<string> {
  const server = createServer((req, res) => {
    handler(req, res).catch((error) => {
      const status = error instanceof GatewayError ? error.status : 500;
      const body = JSON.stringify({ code: error.code, message: error.message, param: error.param ?? null });
      if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A vendor that hashes what it receives. */
export async function startVendor(): Promise<string> {
  return startServer(async (req, res) => {
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of req) {
      hash.update(chunk);
      bytes += chunk.length;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ sha256: hash.digest('hex'), bytes, contentType: req.headers['content-type'] }));
  });
}

interface Sent {
  status: number;
  body: any;
}

/** Posts `data` in chunks; `beforeRest` runs after the first `headBytes` were written. */
export function post(url: string, data: Buffer, options: { chunked?: boolean; headBytes?: number; beforeRest?: () => Promise<void> } = {}) {
  const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
  if (!options.chunked) headers['content-length'] = String(data.length);
  const req = httpRequest(url, { method: 'POST', headers });
  const response = new Promise<Sent>((resolve, reject) => {
    req.on('response', async (res) => {
      let text = '';
      for await (const chunk of res) text += chunk;
      resolve({ status: res.statusCode!, body: JSON.parse(text) });
    });
    req.on('error', reject);
  });
  void (async () => {
    const head = options.headBytes ?? 0;
    if (head > 0) {
      req.write(data.subarray(0, head));
      await options.beforeRest?.();
    }
    for (let offset = head; offset < data.length; offset += 256 * 1024) {
      if (req.destroyed) return;
      if (!req.write(data.subarray(offset, offset + 256 * 1024))) await new Promise((r) => req.once('drain', r));
    }
    req.end();
  })();
  return { req, response };
}

export async function readAll(body: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await sleep(10);
  }
}

/** The temporary directory of the running test (a new one for each test, removed after it). */
export let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'multipart-test-'));
});
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      const closed = new Promise((r) => server.close(r));
      server.closeAllConnections();
      return closed;
    }),
  );
  rmSync(tmp, { recursive: true, force: true });
});

