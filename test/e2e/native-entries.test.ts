import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIMULATOR_KEYS } from '../../src/protocols/simulators.ts';
import { DASHSCOPE_TASKS, lookupTask, readVendorTaskId, submitVideo, VIDEO_REQUEST } from '../helpers/native-clients.ts';
import { NATIVE_KEYS, sendRawPath, startNativeGateway, type NativeGateway } from '../helpers/start-native-gateway.ts';

let gw: NativeGateway;
const TASKS = DASHSCOPE_TASKS;
const VIDEO = VIDEO_REQUEST;

beforeAll(async () => {
  gw = await startNativeGateway();
});
afterAll(() => gw.close());
beforeEach(() => {
  gw.sims.dashscope.reset();
  gw.sims.openai.reset();
  gw.echo.length = 0;
});

const dashscopeCalls = () => gw.sims.dashscope.received;
const submit = (body: unknown, key = gw.key, headers: Record<string, string> = {}) => submitVideo(gw, body, key, headers);
const lookup = (id: string, key = gw.key) => lookupTask(gw, id, key);
const VENDOR_SUBMIT = '/api/v1/services/aigc/video-generation/video-synthesis';

describe('DashScope video synthesis through the vendor-native entries', () => {
  it('submits with the gateway credential, only the allowed headers, the client body as sent, and answers a signed task id', async () => {
    const text = JSON.stringify(VIDEO);
    const created = await submit(text, gw.key, {
      cookie: 'session=client',
      'x-forwarded-for': '10.0.0.1',
      'x-api-key': 'client-extra-key',
      'x-dashscope-workspace': 'ws-client',
    });
    expect(created.status).toBe(200);
    expect(created.json.output.task_status).toBe('PENDING');
    expect(created.json.output.task_id).toMatch(/^task_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{32}$/);
    expect(typeof created.json.request_id).toBe('string');
    expect(created.headers.get('x-request-id')).toBeTruthy();

    expect(dashscopeCalls()).toHaveLength(1);
    const sent = dashscopeCalls()[0];
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe(VENDOR_SUBMIT);
    expect(sent.headers.authorization).toBe(`Bearer ${SIMULATOR_KEYS.dashscope}`);
    expect(sent.headers['x-dashscope-async']).toBe('enable');
    for (const stripped of ['cookie', 'x-forwarded-for', 'x-api-key', 'x-dashscope-workspace']) expect(sent.headers[stripped]).toBeUndefined();
    expect(JSON.stringify(sent.headers)).not.toContain(gw.key);
    expect(sent.body.toString()).toBe(text);
    // The client sees the signed id, never the vendor's.
    expect(JSON.stringify(created.json)).not.toContain(readVendorTaskId(created.json.output.task_id));
  });

  it('looks the task up PENDING -> RUNNING -> SUCCEEDED with a video_url, the vendor asked for its own task id', async () => {
    const created = await submit(VIDEO);
    const id: string = created.json.output.task_id;
    const vendorId = readVendorTaskId(id);
    expect(vendorId).toMatch(/^[0-9a-f-]{36}$/);
    const states: string[] = [];
    let last: any;
    for (let i = 0; i < 3; i++) {
      const answer = await lookup(id);
      expect(answer.status).toBe(200);
      expect(answer.json.output.task_id).toBe(id);
      states.push(answer.json.output.task_status);
      last = answer.json;
    }
    expect(states).toEqual(['PENDING', 'RUNNING', 'SUCCEEDED']);
    expect(last.output.video_url).toMatch(/\.mp4\?Expires=\d+$/);
    expect(last.output.orig_prompt).toBe(VIDEO.input.prompt);
    expect(last.usage).toEqual({ video_duration: 5, video_count: 1, video_ratio: '1920*1080' });
    const lookups = dashscopeCalls().filter((r) => r.method === 'GET');
    expect(lookups.map((r) => r.url)).toEqual([`/api/v1/tasks/${vendorId}`, `/api/v1/tasks/${vendorId}`, `/api/v1/tasks/${vendorId}`]);
    expect(lookups[0].headers.authorization).toBe(`Bearer ${SIMULATOR_KEYS.dashscope}`);
    expect(lookups[0].headers['content-type']).toBeUndefined();
    const video = await fetch(last.output.video_url);
    expect(video.headers.get('content-type')).toBe('video/mp4');
  });

  it('logs one usage event per call naming the entry, model, vendor and key', async () => {
    const before = gw.events.length;
    const created = await submit(VIDEO);
    await lookup(created.json.output.task_id);
    await waitForEvents(before + 2);
    const [submitEvent, lookupEvent] = gw.events.slice(before);
    expect(submitEvent).toMatchObject({ op: 'native', native: 'dashscope-video-synthesis', model: 'wan2.2-t2v-plus', vendor: 'dashscope', key: 'simulator', status: 200, vendorCalls: 1 });
    expect(lookupEvent).toMatchObject({ op: 'native', native: 'dashscope-task', model: 'wan2.2-t2v-plus', vendor: 'dashscope', key: 'simulator', status: 200 });
  });

  it('answers 404 to another key looking the task up, and to the other task routes, without calling the vendor', async () => {
    const created = await submit(VIDEO);
    const id: string = created.json.output.task_id;
    gw.sims.dashscope.reset();
    const foreign = await lookup(id, NATIVE_KEYS.other);
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.code).toBe('task_not_found');
    const viaVideos = await fetch(`${gw.url}/v1/videos/${id}`, { headers: { authorization: `Bearer ${gw.key}` } });
    expect(viaVideos.status).toBe(404);
    expect(dashscopeCalls()).toHaveLength(0);
    // A /v1/videos task id is no native task id either.
    const sora = await fetch(`${gw.url}/v1/videos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sora-2', prompt: 'a cat' }),
    });
    const soraId = ((await sora.json()) as any).id;
    expect((await lookup(soraId)).status).toBe(404);
    expect(dashscopeCalls()).toHaveLength(0);
  });

  it('sends the vendor its own model name when the gateway names the model otherwise, and signs the task for the gateway name', async () => {
    const created = await submit({ ...VIDEO, model: 'wan-video' });
    expect(created.status).toBe(200);
    expect(JSON.parse(dashscopeCalls()[0].body.toString())).toEqual(VIDEO);
    const before = gw.events.length;
    const found = await lookup(created.json.output.task_id);
    expect(found.status).toBe(200);
    await waitForEvents(before + 1);
    expect(gw.events.some((event) => event.model === 'wan-video' && event.native === 'dashscope-task' && event.status === 200)).toBe(true);
  });

  it('cancels a pending task with a bodiless POST, for the owning key only', async () => {
    const created = await submit(VIDEO);
    const id: string = created.json.output.task_id;
    const cancel = (key: string) => sendRawPath(gw.url, 'POST', `${TASKS}${id}/cancel`, { authorization: `Bearer ${key}` });
    expect((await cancel(NATIVE_KEYS.other)).status).toBe(404);
    const canceled = await cancel(gw.key);
    expect(canceled.status).toBe(200);
    expect(typeof canceled.json.request_id).toBe('string');
    const sent = dashscopeCalls().at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe(`/api/v1/tasks/${readVendorTaskId(id)}/cancel`);
    expect(sent.body.length).toBe(0);
    expect(dashscopeCalls()).toHaveLength(2);
  });

  it('answers a vendor error in the caller style without its raw body', async () => {
    const refused = await submit({ model: 'wan2.2-t2v-plus', input: {} });
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toContain('input.prompt');
    expect(refused.json.request_id).toBeUndefined();
  });
});

async function waitForEvents(count: number): Promise<void> {
  for (let i = 0; i < 100 && gw.events.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 10));
}
