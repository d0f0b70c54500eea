import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.ts';
import { readMultipartModel, type MultipartModel } from '../../src/runtime/multipart.ts';
import { MB, buildForm, startServer, post, waitFor, tmp } from './multipart-harness.ts';

describe('readMultipartModel: clean-up when the client or the request aborts', () => {
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
    let spooled: string[] = [];
    let bodyFailed!: () => void;
    const bodyFailure = new Promise<void>((r) => (bodyFailed = r));
    const gateway = await startServer(async (req) => {
      upload = await readMultipartModel(req, { field: 'model', limitBytes: 50 * MB, memoryBytes: 64 * 1024, tmpDir: tmp });
      // Before the body is read, so the file is still there (it goes once replayed).
      spooled = readdirSync(tmp);
      upload.body.on('error', () => bodyFailed());
      upload.body.resume();
    });
    const form = buildForm([
      { name: 'file', filename: 'f', data: randomBytes(1 * MB) },
      { name: 'model', value: 'm' },
      { name: 'file2', filename: 'g', data: randomBytes(4 * MB) },
    ]);
    const { req, response } = post(gateway, form, {
      headBytes: 2 * MB,
      beforeRest: async () => {
        await waitFor(() => upload !== undefined);
        req.destroy();
      },
    });
    response.catch(() => undefined);
    await bodyFailure;
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
