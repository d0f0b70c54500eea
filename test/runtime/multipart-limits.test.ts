import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { request as undiciRequest } from 'undici';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.ts';
import { readMultipartModel } from '../../src/runtime/multipart.ts';
import { MB, buildForm, startServer, post, readAll, tmp } from './multipart-harness.ts';

describe('readMultipartModel: size limits and malformed forms', () => {
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
});
