import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { request as undiciRequest } from 'undici';
import { describe, expect, it } from 'vitest';
import { readMultipartModel } from '../../src/runtime/multipart.ts';
import { waitForStall } from '../helpers/wait-for.ts';
import { BOUNDARY, MB, buildForm, sha256, startServer, startVendor, post, readAll, tmp, waitFor } from './multipart-harness.ts';

describe('readMultipartModel: spooling a late model field, a leading one, backpressure', () => {
  it('spools the bytes before a late model field to a temp file, forwards them byte-identical and removes the file', async () => {
    const vendor = await startVendor();
    let filesAtResolve: string[] = [];
    let cleanedUp: Promise<void> | undefined;
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
        // Taken in the same turn as res.end, so before the client can have the answer.
        cleanedUp = upload.cleanup();
        await cleanedUp;
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
    // The handler answers before it cleans up (the gateway too, on the response's 'close'), and the removal the
    // replay started is still in the thread pool then: the file can outlive the answer by a few ms. Look once
    // the clean-up has settled.
    expect(cleanedUp).toBeDefined();
    await cleanedUp;
    expect(readdirSync(tmp)).toEqual([]);
  });
  it('removes the temp file once its bytes are replayed, while the rest of the upload is still arriving', async () => {
    const vendor = await startVendor();
    let gatewayReq: IncomingMessage | undefined;
    let filesAtResolve: string[] = [];
    const gateway = await startServer(async (req, res) => {
      gatewayReq = req;
      const upload = await readMultipartModel(req, { field: 'model', limitBytes: 50 * MB, memoryBytes: 64 * 1024, tmpDir: tmp });
      // Before the body is read, so the file is still there (it goes once replayed).
      filesAtResolve = readdirSync(tmp);
      try {
        const answer = await undiciRequest(vendor, { method: 'POST', body: upload.body, headers: { 'content-type': upload.contentType } });
        res.end(JSON.stringify(await answer.body.json()));
      } finally {
        await upload.cleanup();
      }
    });
    const form = buildForm([
      { name: 'file', filename: 'a.wav', data: randomBytes(2 * MB) },
      { name: 'model', value: 'whisper-test' },
      { name: 'file2', filename: 'b.wav', data: randomBytes(4 * MB) },
    ]);
    // The client holds the last 3 MB back until the file is gone (5 s at most): only the replay can remove it
    // then, as the handler's clean-up waits for the vendor's answer, which needs the whole upload.
    let removedMidUpload: boolean | undefined;
    const { response } = post(gateway, form, {
      headBytes: 3 * MB,
      beforeRest: async () => {
        removedMidUpload = await waitFor(() => filesAtResolve.length > 0 && readdirSync(tmp).length === 0).then(
          () => gatewayReq!.complete === false,
          () => false,
        );
      },
    });
    const { status, body } = await response;
    expect(status).toBe(200);
    expect(filesAtResolve).toEqual([expect.stringMatching(/^gateway-upload-/)]);
    expect(removedMidUpload).toBe(true);
    expect(body).toEqual({ sha256: sha256(form), bytes: form.length, contentType: `multipart/form-data; boundary=${BOUNDARY}` });
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
      // Until the upload stops arriving (not a fixed time, which a slow machine could end before a product without
      // backpressure had read 10 MB): without backpressure it stops only at its end, 40 MB in.
      await waitForStall(() => req.socket.bytesRead);
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
