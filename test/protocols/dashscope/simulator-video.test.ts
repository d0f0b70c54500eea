import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDashScopeSimulator } from '../../../src/protocols/dashscope/simulator/index.ts';
import type { Simulator } from '../../../src/simulators/types.ts';
import { VENDOR_FIXTURES } from '../../helpers/vendor-fixtures.ts';
import { readFixture, shapeOf } from '../../simulators/helpers.ts';

const KEY = 'sk-sim-dashscope';
const CREATE = '/services/aigc/video-generation/video-synthesis';
let sim: Simulator;

async function call(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = { 'x-dashscope-async': 'enable' }) {
  const res = await request(`${sim.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as any };
}

/** The JSON body of the create transcript (`video-synthesis-create-request.http`). */
function readCreateRequest(): any {
  const text = readFileSync(`${VENDOR_FIXTURES}/dashscope/video-synthesis-create-request.http`, 'utf8');
  return JSON.parse(text.slice(text.indexOf('\n\n') + 2));
}

beforeAll(async () => {
  sim = await startDashScopeSimulator();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('DashScope simulator: text-to-video', () => {
  it('creates a video task shaped as video-synthesis-create-response.json, then goes PENDING -> RUNNING -> SUCCEEDED with a video_url', async () => {
    const created = await call('POST', CREATE, readCreateRequest());
    expect(created.status).toBe(200);
    expect(shapeOf(created.body)).toEqual(shapeOf(readFixture('dashscope/video-synthesis-create-response.json')));
    const id = created.body.output.task_id;
    expect((await call('GET', `/tasks/${id}`)).body.output.task_status).toBe('PENDING');
    const running = await call('GET', `/tasks/${id}`);
    expect(shapeOf(running.body)).toEqual(shapeOf(readFixture('dashscope/video-task-query-response-running.json')));
    const done = await call('GET', `/tasks/${id}`);
    expect(shapeOf(done.body)).toEqual(shapeOf(readFixture('dashscope/video-task-query-response-succeeded.json')));
    expect(done.body.output).toMatchObject({ task_id: id, task_status: 'SUCCEEDED', orig_prompt: '一只小猫在月光下奔跑' });
    expect(done.body.usage).toEqual({ video_duration: 5, video_count: 1, video_ratio: '1920*1080' });
    const video = await request(done.body.output.video_url);
    expect(video.statusCode).toBe(200);
    expect(video.headers['content-type']).toBe('video/mp4');
    expect(Buffer.from(await video.body.arrayBuffer()).subarray(4, 8).toString()).toBe('ftyp');
  });

  it('refuses a synchronous call, a missing prompt and a size written with x, as DashScope does', async () => {
    const body = { model: 'wan2.2-t2v-plus', input: { prompt: 'a cat' } };
    expect((await call('POST', CREATE, body, {})).body.message).toBe('current user api does not support synchronous calls');
    expect((await call('POST', CREATE, { model: 'wan2.2-t2v-plus', input: {} })).body.code).toBe('InvalidParameter');
    const wrongSize = await call('POST', CREATE, { ...body, parameters: { size: '1920x1080' } });
    expect(wrongSize.status).toBe(400);
    expect(wrongSize.body.message).toContain('width*height');
  });

  it('serves no video before the task succeeded', async () => {
    const id = (await call('POST', CREATE, { model: 'wan2.2-t2v-plus', input: { prompt: 'a cat' } })).body.output.task_id;
    const early = await request(`${new URL(sim.url).origin}/files/${id}.mp4`);
    await early.body.dump();
    expect(early.statusCode).toBe(404);
  });
});
