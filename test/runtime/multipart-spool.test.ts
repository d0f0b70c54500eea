import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { request as undiciRequest } from 'undici';
import { describe, expect, it } from 'vitest';
import { readMultipartModel } from '../../src/runtime/multipart.ts';
import { BOUNDARY, MB, buildForm, sha256, startServer, startVendor, post, readAll, tmp } from './multipart-harness.ts';

describe('readMultipartModel: spooling a late model field, a leading one, backpressure', () => {
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
});
