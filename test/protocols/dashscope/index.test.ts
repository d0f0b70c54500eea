import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelEntry, VendorEntry } from '../../../src/config/types.ts';
import { createTaskImageBackend } from '../../../src/images/task-backend.ts';
import { dashscopeAdapter } from '../../../src/protocols/dashscope/index.ts';
import { dashscopeImageTasks, toDashScopeImageBody, toTaskError } from '../../../src/protocols/dashscope/image-tasks.ts';
import { getProtocolAdapter } from '../../../src/protocols/index.ts';
import { callVendor } from '../../../src/runtime/vendor-call.ts';
import type { OpCall, RequestContext, RuntimeVendor } from '../../../src/runtime/types.ts';
import { VENDOR_FIXTURES } from '../../helpers/vendor-fixtures.ts';

const FIXTURES = `${VENDOR_FIXTURES}/dashscope`;
const fixture = (name: string) => JSON.parse(readFileSync(`${FIXTURES}/${name}`, 'utf8'));

const VENDOR: VendorEntry = {
  name: 'dashscope',
  protocol: 'dashscope',
  baseUrl: 'http://127.0.0.1/api/v1',
  auth: { kind: 'bearer', env: 'DASHSCOPE_API_KEY' },
  headers: {},
  timeouts: { headersMs: 5000, bodyMs: 5000 },
  connections: 4,
  policyErrorCodes: ['DataInspectionFailed', 'IPInfringementSuspect'],
};
const dashscopeImageBackend = createTaskImageBackend(dashscopeImageTasks);

describe('dashscope adapter', () => {
  it('is the adapter registered for the dashscope protocol, with nothing passed through', () => {
    expect(getProtocolAdapter('dashscope')).toBe(dashscopeAdapter);
    expect(dashscopeAdapter.passthrough).toEqual({});
    expect(dashscopeAdapter.requestHeaders).toEqual([]);
  });

  it('reads the flat {code, message, request_id} error bodies of the fixtures', () => {
    expect(dashscopeAdapter.readError(401, fixture('error.json'))).toEqual({
      status: 401,
      type: 'InvalidApiKey',
      message: 'Invalid API-key provided.',
      authFailure: true,
    });
    expect(dashscopeAdapter.readError(400, fixture('error-400-data-inspection.json'))).toEqual({
      status: 400,
      type: 'DataInspectionFailed',
      message: 'Input data may contain inappropriate content.',
      authFailure: false,
    });
    expect(dashscopeAdapter.readError(502, undefined)).toMatchObject({ status: 502, type: 'upstream_error', authFailure: false });
  });

  it('reads token usage, and none from an image task (it reports an image count)', () => {
    expect(dashscopeAdapter.readUsage(fixture('task-query-response-succeeded.json'))).toBeUndefined();
    expect(dashscopeAdapter.readUsage({ usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12 } })).toEqual({
      inputTokens: 5,
      outputTokens: 7,
      totalTokens: 12,
    });
  });

  it('moves the spec’s parameters.negative_prompt to input.negative_prompt, where Wan reads it', () => {
    expect(toDashScopeImageBody({ input: { prompt: 'p' }, parameters: { negative_prompt: 'blur', n: 1 } })).toEqual({
      input: { prompt: 'p', negative_prompt: 'blur' },
      parameters: { n: 1 },
    });
    const both = { input: { prompt: 'p', negative_prompt: 'a' }, parameters: { negative_prompt: 'b' } };
    expect(toDashScopeImageBody(both)).toBe(both);
  });

  it('maps task failures: policy codes to content_policy_violation, Invalid* to 400, others to 502', () => {
    expect(toTaskError(VENDOR, 'IPInfringementSuspect', 'ip')).toMatchObject({ status: 400, code: 'content_policy_violation', message: 'ip' });
    expect(toTaskError(VENDOR, 'InvalidParameter', 'bad size')).toMatchObject({ status: 400, code: 'InvalidParameter' });
    expect(toTaskError(VENDOR, 'InternalError', 'boom')).toMatchObject({ status: 502, code: 'upstream_task_failed' });
  });
});

/** A vendor replaying fixture bodies: the create answer, then one scripted answer per task lookup. */
let server: Server;
let origin: string;
let createAnswer: { status: number; body: unknown };
let lookups: { status: number; body: unknown }[];
let seen: { method: string; url: string; headers: Record<string, unknown>; body: string }[];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const answer = req.method === 'POST' ? createAnswer : (lookups.shift() ?? { status: 500, body: { code: 'InternalError', message: 'no more' } });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  createAnswer = { status: 200, body: fixture('text2image-create-response.json') };
  lookups = [];
  seen = [];
});

function createCall(deadlineMs = 10_000): OpCall {
  const vendor: RuntimeVendor = { config: VENDOR, secret: 'sk-test', dispatcher: new Pool(origin), origin, basePath: '/api/v1', signatureOrigin: 'dashscope-test' };
  const ctx = { deadline: Date.now() + deadlineMs, signal: new AbortController().signal, abortSource: new AbortController().signal, vendorCalls: 0 } as unknown as RequestContext;
  const model = { id: 'wanx2.1-t2i-turbo', images: { pollTimeoutMs: 10_000 } } as ModelEntry;
  return { ctx, body: {}, model, target: { vendor: 'dashscope', upstream: 'wanx2.1-t2i-turbo', weight: 1 }, vendor, callVendor: (request) => callVendor(ctx, vendor, request) };
}
const body = { model: 'wanx2.1-t2i-turbo', input: { prompt: 'p' }, parameters: { n: 1, negative_prompt: 'blur' } };
const ok = (name: string) => ({ status: 200, body: fixture(name) });

describe('dashscope image tasks through the task backend', () => {
  it('creates the task with X-DashScope-Async and polls until SUCCEEDED, actual_prompt as revised_prompt', async () => {
    lookups = [ok('task-query-response-pending.json'), ok('task-query-response-running.json'), ok('task-query-response-succeeded.json')];
    const batch = await dashscopeImageBackend.generate(createCall(), body, new AbortController().signal);
    const succeeded = fixture('task-query-response-succeeded.json').output.results[0];
    expect(batch.data).toEqual([{ url: succeeded.url, revised_prompt: succeeded.actual_prompt }]);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/v1/services/aigc/text2image/image-synthesis' });
    expect(seen[0].headers).toMatchObject({ 'x-dashscope-async': 'enable', authorization: 'Bearer sk-test', 'content-type': 'application/json' });
    expect(JSON.parse(seen[0].body)).toEqual({ model: 'wanx2.1-t2i-turbo', input: { prompt: 'p', negative_prompt: 'blur' }, parameters: { n: 1 } });
    const taskId = fixture('text2image-create-response.json').output.task_id;
    expect(seen.slice(1).map((r) => `${r.method} ${r.url}`)).toEqual(Array(3).fill(`GET /api/v1/tasks/${taskId}`));
  });

  it('answers the images that succeeded of a partly failed task', async () => {
    lookups = [ok('task-query-response-partial.json')];
    const batch = await dashscopeImageBackend.generate(createCall(), body, new AbortController().signal);
    expect(batch.data.map((d) => d.url)).toEqual(fixture('task-query-response-partial.json').output.results.slice(0, 3).map((r: any) => r.url));
  });

  it('maps a FAILED task with an output policy code to content_policy_violation', async () => {
    lookups = [ok('task-query-response-failed.json')];
    await expect(dashscopeImageBackend.generate(createCall(), body, new AbortController().signal)).rejects.toMatchObject({
      status: 400,
      code: 'content_policy_violation',
      message: 'Output data may contain inappropriate content.',
    });
  });

  it('maps a task the vendor no longer knows (UNKNOWN) to 502', async () => {
    lookups = [ok('task-query-response-unknown.json')];
    await expect(dashscopeImageBackend.generate(createCall(), body, new AbortController().signal)).rejects.toMatchObject({
      status: 502,
      code: 'upstream_task_failed',
    });
  });

  it('maps create errors: a policy code to content_policy_violation, a rejected key to 502 upstream_auth_failed', async () => {
    createAnswer = { status: 400, body: fixture('error-400-data-inspection.json') };
    await expect(dashscopeImageBackend.generate(createCall(), body, new AbortController().signal)).rejects.toMatchObject({
      status: 400,
      code: 'content_policy_violation',
    });
    createAnswer = { status: 401, body: fixture('error.json') };
    const error = await dashscopeImageBackend.generate(createCall(), body, new AbortController().signal).catch((e) => e);
    expect(error).toMatchObject({ status: 502, code: 'upstream_auth_failed' });
    expect(error.message).not.toContain('Invalid API-key');
  });

  it('fails after repeated failed lookups instead of polling on', async () => {
    lookups = [
      { status: 500, body: { code: 'InternalError', message: 'x' } },
      { status: 500, body: { code: 'InternalError', message: 'x' } },
      { status: 500, body: { code: 'InternalError', message: 'x' } },
    ];
    await expect(dashscopeImageBackend.generate(createCall(), body, new AbortController().signal)).rejects.toMatchObject({ status: 500 });
    expect(seen.filter((r) => r.method === 'GET')).toHaveLength(3);
  });

  it('stops at the request’s deadline with 504', async () => {
    lookups = Array(20).fill(ok('task-query-response-running.json'));
    await expect(dashscopeImageBackend.generate(createCall(600), body, new AbortController().signal)).rejects.toMatchObject({
      status: 504,
      code: 'upstream_timeout',
    });
  });

  it('stops polling when its signal aborts (a sibling part failed)', async () => {
    lookups = Array(20).fill(ok('task-query-response-running.json'));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await expect(dashscopeImageBackend.generate(createCall(), body, controller.signal)).rejects.toMatchObject({ status: 499 });
    expect(seen.filter((r) => r.method === 'GET').length).toBeLessThanOrEqual(2);
  });
});
