import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../../src/errors.ts';
import { readMultipartModel } from '../../src/runtime/multipart.ts';
import { MB, buildForm, startServer, post, tmp } from './multipart-harness.ts';

/** The request's controller of the running test: the spool's seal aborts it, as a deadline firing then would. */
const at = vi.hoisted(() => ({ controller: undefined as AbortController | undefined, reason: undefined as unknown }));

vi.mock('../../src/runtime/multipart-spool.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/runtime/multipart-spool.ts')>();
  return {
    ...actual,
    createSpool: (...args: Parameters<typeof actual.createSpool>) => {
      const spool = actual.createSpool(...args);
      const seal = spool.seal.bind(spool);
      spool.seal = async () => {
        at.controller?.abort(at.reason);
        await seal();
      };
      return spool;
    },
  };
});

describe('readMultipartModel: an abort while the spool is sealed', () => {
  it("fails with the abort's own error and removes the temp file, instead of answering with a body that can never be read", async () => {
    at.controller = new AbortController();
    at.reason = new GatewayError(504, 'deadline_exceeded', 'The request took longer than its deadline.');
    let settle!: (outcome: { model?: string; error?: unknown }) => void;
    const outcome = new Promise<{ model?: string; error?: unknown }>((r) => (settle = r));
    const gateway = await startServer(async (req) => {
      const options = { field: 'model', limitBytes: 50 * MB, memoryBytes: 64 * 1024, tmpDir: tmp, signal: at.controller!.signal };
      await readMultipartModel(req, options).then(
        async (upload) => {
          await upload.cleanup();
          settle({ model: upload.model });
        },
        (error: unknown) => settle({ error }),
      );
    });
    const form = buildForm([{ name: 'file', filename: 'f', data: randomBytes(1 * MB) }, { name: 'model', value: 'm' }]);
    const { response } = post(gateway, form);
    response.catch(() => undefined);
    const { model, error } = await outcome;
    expect(model).toBeUndefined();
    expect(error).toBe(at.reason);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
