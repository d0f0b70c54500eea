import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDashScopeSimulator } from '../../../src/protocols/dashscope/simulator/index.ts';
import { TINY_PNG } from '../../../src/simulators/media.ts';
import type { Simulator } from '../../../src/simulators/types.ts';
import { readFixture, shapeOf } from '../../simulators/helpers.ts';

const KEY = 'sk-sim-dashscope';
const CREATE = '/services/aigc/text2image/image-synthesis';
let sim: Simulator;

async function call(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await request(`${sim.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'x-dashscope-async': 'enable', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as any };
}

function create(prompt: string, parameters: Record<string, unknown> = { size: '1024*1024', n: 1 }) {
  return call('POST', CREATE, { model: 'wanx2.1-t2i-turbo', input: { prompt }, parameters });
}

beforeAll(async () => {
  sim = await startDashScopeSimulator();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('DashScope simulator', () => {
  it('creates a task like text2image-create-response.json and records the request', async () => {
    const req = readFixture('dashscope/text2image-create-request.json');
    const res = await call('POST', CREATE, req);
    expect(res.status).toBe(200);
    expect(shapeOf(res.body)).toEqual(shapeOf(readFixture('dashscope/text2image-create-response.json')));
    expect(res.body.output.task_status).toBe('PENDING');
    expect(sim.received[0].url).toBe(`/api/v1${CREATE}`);
    expect(sim.received[0].headers['x-dashscope-async']).toBe('enable');
    expect(JSON.parse(sim.received[0].body.toString())).toEqual(req);
  });

  it('moves a task PENDING -> RUNNING -> SUCCEEDED over three polls, bodies shaped as the fixtures', async () => {
    const id = (await create('a red fox', { size: '1024*1024', n: 2 })).body.output.task_id;
    const pending = await call('GET', `/tasks/${id}`);
    expect(shapeOf(pending.body)).toEqual(shapeOf(readFixture('dashscope/task-query-response-pending.json')));
    const running = await call('GET', `/tasks/${id}`);
    expect(shapeOf(running.body)).toEqual(shapeOf(readFixture('dashscope/task-query-response-running.json')));
    expect(running.body.output.task_metrics.TOTAL).toBe(2);
    const done = await call('GET', `/tasks/${id}`);
    expect(shapeOf(done.body)).toEqual(shapeOf(readFixture('dashscope/task-query-response-succeeded.json')));
    expect(done.body.output.task_status).toBe('SUCCEEDED');
    expect(done.body.usage).toEqual({ image_count: 2 });
    expect(done.body.output.results).toHaveLength(2);
    expect(done.body.output.results[0].orig_prompt).toBe('a red fox');
    expect((await call('GET', `/tasks/${id}`)).body.output.task_status).toBe('SUCCEEDED');
    const image = await request(done.body.output.results[1].url);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(Buffer.from(await image.body.arrayBuffer())).toEqual(TINY_PNG);
  });

  it('makes 4 images when parameters.n is not sent, as the real vendor does', async () => {
    const id = (await create('cats', { size: '1024*1024' })).body.output.task_id;
    for (let i = 0; i < 2; i++) await call('GET', `/tasks/${id}`);
    const done = await call('GET', `/tasks/${id}`);
    expect(done.body.output.results).toHaveLength(4);
    expect(done.body.usage.image_count).toBe(4);
  });

  it('refuses a prompt containing "forbidden" at create with 400 DataInspectionFailed', async () => {
    const res = await create('something forbidden');
    expect(res.status).toBe(400);
    expect(shapeOf(res.body)).toEqual(shapeOf(readFixture('dashscope/error-400-data-inspection.json')));
    expect(res.body.code).toBe('DataInspectionFailed');
  });

  it('ends a task FAILED with output.code DataInspectionFailed when the prompt contains "unsafe-output"', async () => {
    const id = (await create('an unsafe-output picture')).body.output.task_id;
    await call('GET', `/tasks/${id}`);
    await call('GET', `/tasks/${id}`);
    const failed = await call('GET', `/tasks/${id}`);
    expect(shapeOf(failed.body)).toEqual(shapeOf(readFixture('dashscope/task-query-response-failed.json')));
    expect(failed.body.output).toMatchObject({ task_status: 'FAILED', code: 'DataInspectionFailed' });
  });

  it('requires X-DashScope-Async: enable', async () => {
    const res = await call('POST', CREATE, { model: 'wanx2.1-t2i-turbo', input: { prompt: 'x' } }, { 'x-dashscope-async': 'disable' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('current user api does not support synchronous calls');
  });

  it('rejects a size written WxH and a missing input.prompt with 400 InvalidParameter', async () => {
    const size = await create('x', { size: '1024x1024', n: 1 });
    expect(size.status).toBe(400);
    expect(shapeOf(size.body)).toEqual(shapeOf(readFixture('dashscope/error-400-invalid-parameter.json')));
    expect(size.body.code).toBe('InvalidParameter');
    expect(size.body.message).toContain('1024x1024');
    const prompt = await call('POST', CREATE, { model: 'wanx2.1-t2i-turbo', input: {} });
    expect(prompt.body.code).toBe('InvalidParameter');
  });

  it('answers UNKNOWN for a task id it never issued', async () => {
    const res = await call('GET', '/tasks/1111');
    expect(res.status).toBe(200);
    expect(shapeOf(res.body)).toEqual(shapeOf(readFixture('dashscope/task-query-response-unknown.json')));
    expect(res.body.output).toEqual({ task_id: '1111', task_status: 'UNKNOWN' });
  });

  it('rejects a wrong key with 401 like error.json', async () => {
    const res = await call('GET', '/tasks/1111', undefined, { authorization: 'Bearer sk-wrong' });
    expect(res.status).toBe(401);
    expect(shapeOf(res.body)).toEqual(shapeOf(readFixture('dashscope/error.json')));
    expect(res.body).toMatchObject({ code: 'InvalidApiKey', message: 'Invalid API-key provided.' });
  });

  it('cancels only a PENDING task', async () => {
    const id = (await create('x')).body.output.task_id;
    expect((await call('POST', `/tasks/${id}/cancel`)).status).toBe(200);
    expect((await call('GET', `/tasks/${id}`)).body.output.task_status).toBe('UNKNOWN');
    const other = (await create('y')).body.output.task_id;
    await call('GET', `/tasks/${other}`);
    expect((await call('POST', `/tasks/${other}/cancel`)).body.code).toBe('UnsupportedOperation');
  });

  it('answers a status fault with the flat DashScope error body', async () => {
    sim.failNext({ kind: 'status', status: 429 });
    const res = await create('x');
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'Throttling.RateQuota', request_id: expect.any(String) });
  });
});
