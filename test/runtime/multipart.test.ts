import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request as undiciRequest } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.ts';
import { readMultipartModel, type MultipartModel } from '../../src/runtime/multipart.ts';

const BOUNDARY = '----gateway-test-boundary-7MA4YWxkTrZu0gW';
const MB = 1024 * 1024;

interface Part {
  name: string;
  value?: string;
  filename?: string;
  data?: Buffer;
}

function buildForm(parts: Part[], boundary = BOUNDARY): Buffer {
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

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;
const servers: Server[] = [];

async function startServer(handler: Handler): Promise<string> {
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
async function startVendor(): Promise<string> {
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
function post(url: string, data: Buffer, options: { chunked?: boolean; headBytes?: number; beforeRest?: () => Promise<void> } = {}) {
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

async function readAll(body: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await sleep(10);
  }
}

let tmp: string;
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

describe('readMultipartModel', () => {
  it('spools the bytes before a late model field to a temp file, forwards them byte-identical and removes the file', async () => {
    const vendor = await startVendor();
    let filesAtResolve: string[] = [];
    const gateway = await startServer(async (req, res) => {
      const upload = await readMultipartModel(req, { field: 'model', limitBytes: 50 * MB, tmpDir: tmp });
      filesAtResolve = readdirSync(tmp);
      try {
        const answer = await undiciRequest(vendor, {
          method: 'POST',
          body: upload.body,
          headers: { 'content-type': upload.contentType },
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ model: upload.model, vendor: await answer.body.json() }));
      } finally {
        await upload.cleanup();
      }
    });
    const form = buildForm([
      { name: 'file', filename: 'speech.mp3', data: randomBytes(5 * MB) },
      { name: 'response_format', value: 'json' },
      { name: 'model', value: 'whisper-test' },
    ]);
    const { response } = post(gateway, form);
    const { status, body } = await response;
    expect(status).toBe(200);
    expect(body.model).toBe('whisper-test');
    expect(body.vendor).toEqual({
      sha256: sha256(form),
      bytes: form.length,
      contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    });
    expect(filesAtResolve).toHaveLength(1);
    expect(filesAtResolve[0]).toMatch(/^gateway-upload-/);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('resolves on a leading model field without spooling, before the upload has ended', async () => {
    let resolved!: () => void;
    const resolvedOnce = new Promise<void>((r) => (resolved = r));
    let state: { files: string[]; complete: boolean } | undefined;
    const gateway = await startServer(async (req, res) => {
      const upload = await readMultipartModel(req, { field: 'model', limitBytes: 50 * MB, tmpDir: tmp });
      state = { files: readdirSync(tmp), complete: req.complete };
      resolved();
      const bytes = await readAll(upload.body);
      res.end(JSON.stringify({ model: upload.model, sha256: sha256(bytes), bytes: bytes.length }));
    });
    const form = buildForm([
      { name: 'model', value: 'gpt-image-test' },
      { name: 'image', filename: 'a.png', data: randomBytes(5 * MB) },
      { name: 'prompt', value: 'a cat' },
    ]);
    const { response } = post(gateway, form, { headBytes: 64 * 1024, beforeRest: () => resolvedOnce });
    const { status, body } = await response;
    expect(status).toBe(200);
    expect(body).toEqual({ model: 'gpt-image-test', sha256: sha256(form), bytes: form.length });
    expect(state).toEqual({ files: [], complete: false });
  });

  it('pauses the live upload while the body consumer is slow (backpressure)', async () => {
    let readBeforeConsuming = -1;
    const gateway = await startServer(async (req, res) => {
      const upload = await readMultipartModel(req, { field: 'model', limitBytes: 100 * MB, tmpDir: tmp });
      await sleep(400);
      readBeforeConsuming = req.socket.bytesRead;
      const bytes = await readAll(upload.body);
      res.end(JSON.stringify({ sha256: sha256(bytes) }));
    });
    const form = buildForm([
      { name: 'model', value: 'm' },
      { name: 'file', filename: 'big.bin', data: randomBytes(40 * MB) },
    ]);
    const { status, body } = await post(gateway, form).response;
    expect(status).toBe(200);
    expect(body.sha256).toBe(sha256(form));
    expect(readBeforeConsuming).toBeGreaterThan(0);
    expect(readBeforeConsuming).toBeLessThan(10 * MB);
  });

  it('answers 413 when the declared content-length exceeds the limit', async () => {
    const gateway = await startServer(async (req) => {
      await readMultipartModel(req, { field: 'model', limitBytes: 1 * MB, tmpDir: tmp });
    });
    const form = buildForm([{ name: 'model', value: 'm' }, { name: 'file', filename: 'f', data: randomBytes(2 * MB) }]);
    const { status, body } = await post(gateway, form).response;
    expect(status).toBe(413);
    expect(body.code).toBe('request_too_large');
  });

  it('answers 413 when a chunked upload passes the limit before the model field, leaving no temp file', async () => {
    const gateway = await startServer(async (req) => {
      await readMultipartModel(req, { field: 'model', limitBytes: 1 * MB, memoryBytes: 64 * 1024, tmpDir: tmp });
    });
    const form = buildForm([{ name: 'file', filename: 'f', data: randomBytes(3 * MB) }, { name: 'model', value: 'm' }]);
    const { status, body } = await post(gateway, form, { chunked: true }).response;
    expect(status).toBe(413);
    expect(body.code).toBe('request_too_large');
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('errors the replay body with 413 when the upload passes the limit after the model field', async () => {
    let bodyError: unknown;
    const gateway = await startServer(async (req, res) => {
      const upload = await readMultipartModel(req, { field: 'model', limitBytes: 1 * MB, tmpDir: tmp });
      try {
        await readAll(upload.body);
      } catch (error) {
        bodyError = error;
        throw error;
      } finally {
        await upload.cleanup();
      }
      res.end('{}');
    });
    const form = buildForm([{ name: 'model', value: 'm' }, { name: 'file', filename: 'f', data: randomBytes(3 * MB) }]);
    const { status, body } = await post(gateway, form, { chunked: true }).response;
    expect(status).toBe(413);
    expect(body.code).toBe('request_too_large');
    expect(bodyError).toBeInstanceOf(GatewayError);
  });

  it('answers 400 missing_model naming the field when the form has no such field', async () => {
    const gateway = await startServer(async (req) => {
      await readMultipartModel(req, { field: 'model', limitBytes: 50 * MB, memoryBytes: 1024, tmpDir: tmp });
    });
    const form = buildForm([{ name: 'file', filename: 'a.wav', data: randomBytes(256 * 1024) }, { name: 'language', value: 'en' }]);
    const { status, body } = await post(gateway, form).response;
    expect(status).toBe(400);
    expect(body).toEqual({ code: 'missing_model', message: expect.stringContaining('`model`'), param: 'model' });
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('answers 400 invalid_multipart for a body whose parts do not match the boundary', async () => {
    const gateway = await startServer(async (req) => {
      await readMultipartModel(req, { field: 'model', limitBytes: 50 * MB, tmpDir: tmp });
    });
    const form = buildForm([{ name: 'model', value: 'm' }], 'some-other-boundary');
    const { status, body } = await post(gateway, form).response;
    expect(status).toBe(400);
    expect(body.code).toBe('invalid_multipart');
  });

  it('answers 400 invalid_multipart for a content type that is not multipart/form-data', async () => {
    const gateway = await startServer(async (req) => {
      await readMultipartModel(req, { field: 'model', limitBytes: 50 * MB, tmpDir: tmp });
    });
    const res = await undiciRequest(gateway, { method: 'POST', body: '{"model":"m"}', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(((await res.body.json()) as any).code).toBe('invalid_multipart');
  });

  it('removes the temp file when the client aborts mid-upload', async () => {
    let failure!: (error: unknown) => void;
    const failed = new Promise<unknown>((r) => (failure = r));
    const gateway = await startServer(async (req) => {
      await readMultipartModel(req, { field: 'model', limitBytes: 50 * MB, memoryBytes: 64 * 1024, tmpDir: tmp }).catch(
        failure,
      );
    });
    const form = buildForm([{ name: 'file', filename: 'f', data: randomBytes(4 * MB) }, { name: 'model', value: 'm' }]);
    const { req, response } = post(gateway, form, {
      headBytes: 1 * MB,
      beforeRest: async () => {
        await waitFor(() => readdirSync(tmp).length === 1);
        req.destroy();
      },
    });
    response.catch(() => undefined);
    const error = (await failed) as GatewayError;
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.status).toBe(499);
    await waitFor(() => readdirSync(tmp).length === 0);
  });

  it('removes the temp file when the client aborts while the spooled prefix is being replayed', async () => {
    let upload!: MultipartModel;
    let bodyFailed!: () => void;
    const bodyFailure = new Promise<void>((r) => (bodyFailed = r));
    const gateway = await startServer(async (req) => {
      upload = await readMultipartModel(req, { field: 'model', limitBytes: 50 * MB, memoryBytes: 64 * 1024, tmpDir: tmp });
      upload.body.on('error', () => bodyFailed());
      upload.body.resume();
    });
    const form = buildForm([
      { name: 'file', filename: 'f', data: randomBytes(1 * MB) },
      { name: 'model', value: 'm' },
      { name: 'file2', filename: 'g', data: randomBytes(4 * MB) },
    ]);
    // The spool file is opened asynchronously and removed once replayed: watch for it the whole time.
    let spooled: string[] = [];
    const watch = setInterval(() => {
      const files = readdirSync(tmp);
      if (files.length > 0) spooled = files;
    }, 1);
    const { req, response } = post(gateway, form, {
      headBytes: 2 * MB,
      beforeRest: async () => {
        await waitFor(() => upload !== undefined);
        req.destroy();
      },
    });
    response.catch(() => undefined);
    await bodyFailure;
    clearInterval(watch);
    expect(upload.model).toBe('m');
    expect(spooled).toHaveLength(1);
    await waitFor(() => readdirSync(tmp).length === 0);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('rejects with the signal reason and removes the temp file when the request signal aborts', async () => {
    const controller = new AbortController();
    let failure!: (error: unknown) => void;
    const failed = new Promise<unknown>((r) => (failure = r));
    const gateway = await startServer(async (req, res) => {
      const error = await readMultipartModel(req, {
        field: 'model',
        limitBytes: 50 * MB,
        memoryBytes: 64 * 1024,
        tmpDir: tmp,
        signal: controller.signal,
      }).catch((e) => e);
      failure(error);
      throw error;
    });
    const form = buildForm([{ name: 'file', filename: 'f', data: randomBytes(3 * MB) }, { name: 'model', value: 'm' }]);
    const { response } = post(gateway, form, {
      headBytes: 1 * MB,
      beforeRest: async () => {
        await waitFor(() => readdirSync(tmp).length === 1);
        controller.abort(new GatewayError(504, 'upstream_timeout', 'deadline'));
        await failed;
      },
    });
    const error = (await failed) as GatewayError;
    expect(error.status).toBe(504);
    expect(readdirSync(tmp)).toEqual([]);
    const { status } = await response;
    expect(status).toBe(504);
  });
});
