import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIMULATOR_KEYS } from '../../src/simulators/index.ts';
import { ECHO_VENDOR_SECRET, NATIVE_KEYS, sendRawPath, startNativeGateway, type NativeGateway } from '../helpers/start-native-gateway.ts';

let gw: NativeGateway;
const SUBMIT = '/dashscope/api/v1/services/aigc/video-generation/video-synthesis';
const TASKS = '/dashscope/api/v1/tasks/';
const VENDOR_SUBMIT = '/api/v1/services/aigc/video-generation/video-synthesis';

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

async function submit(body: unknown, key = gw.key, headers: Record<string, string> = {}) {
  const response = await fetch(gw.url + SUBMIT, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-dashscope-async': 'enable', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, json: (await response.json()) as any };
}

async function lookup(id: string, key = gw.key) {
  const response = await fetch(gw.url + TASKS + id, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, json: (await response.json()) as any };
}

const VIDEO = { model: 'wan2.2-t2v-plus', input: { prompt: 'a kitten running under the moon' }, parameters: { size: '1920*1080', prompt_extend: true } };

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

describe('vendor-native entries refuse what is not declared', () => {
  it('answers 404 to undeclared methods on declared paths, never calling the vendor', async () => {
    for (const [method, path] of [
      ['PUT', SUBMIT],
      ['DELETE', SUBMIT],
      ['GET', SUBMIT],
      ['PATCH', `${TASKS}abc`],
      ['POST', `${TASKS}abc`],
      ['GET', `${TASKS}abc/cancel`],
      ['GET', '/dashscope/api/v1/tasks'],
    ]) {
      const answer = await sendRawPath(gw.url, method, path, { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' }, method === 'GET' ? undefined : '{}');
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.json.error.code).toBe('route_not_found');
    }
    expect(dashscopeCalls()).toHaveLength(0);
  });

  it('answers 400 to dot segments and encoded separators in a path parameter (404 to extra segments), never calling a vendor', async () => {
    const auth = { authorization: `Bearer ${NATIVE_KEYS.granted}` };
    for (const param of ['..', '.', '%2e%2e', '%2E', 'a%2Fb', '%2F..%2F', 'a%5Cb', '%252F', 'a%3Fb', 'a%23b', '%00', 'a%20b', '..%2F..%2Fadmin', '%C3%A9']) {
      for (const prefix of [TASKS, '/native/echo/items/']) {
        const answer = await sendRawPath(gw.url, 'GET', prefix + param, auth);
        expect(answer.status, `${prefix}${param}`).toBe(400);
        expect(answer.headers['x-request-id']).toBeTruthy();
        expect(answer.json.error.code).toBe('invalid_path');
      }
    }
    for (const path of [`${TASKS}../../services/aigc/video-generation/video-synthesis`, '/native/echo/items/a/../../jobs', '/native/echo/items/']) {
      expect((await sendRawPath(gw.url, 'GET', path, auth)).status).toBe(404);
    }
    expect(dashscopeCalls()).toHaveLength(0);
    expect(gw.echo).toHaveLength(0);
  });

  it('needs the grant of an entry whose request names no model', async () => {
    const denied = await sendRawPath(gw.url, 'GET', '/native/echo/items/abc', { authorization: `Bearer ${gw.key}` });
    expect(denied.status).toBe(403);
    expect(denied.json.error.code).toBe('native_not_granted');
    expect(gw.echo).toHaveLength(0);
    const granted = await sendRawPath(gw.url, 'GET', '/native/echo/items/abc', { authorization: `Bearer ${NATIVE_KEYS.granted}` });
    expect(granted.status).toBe(200);
    expect(granted.json).toEqual({ path: '/items/abc' });
    expect(gw.echo).toHaveLength(1);
  });

  it('applies the model allowlist and the entry vendor when the body names a model', async () => {
    const cases: [unknown, string, number, string][] = [
      [VIDEO, NATIVE_KEYS.narrow, 403, 'model_not_allowed'],
      [{ ...VIDEO, model: 'gpt-4o' }, gw.key, 400, 'model_not_on_vendor'],
      [{ ...VIDEO, model: 'no-such-model' }, gw.key, 404, 'model_not_found'],
      [{ input: VIDEO.input }, gw.key, 400, 'missing_model'],
    ];
    for (const [body, key, status, code] of cases) {
      const answer = await submit(body, key);
      expect(answer.status).toBe(status);
      expect(answer.json.error.code).toBe(code);
    }
    expect(dashscopeCalls()).toHaveLength(0);
  });

  it('applies the key rate limit (429 with Retry-After), calling the vendor once', async () => {
    const first = await submit(VIDEO, NATIVE_KEYS.limited);
    expect(first.status).toBe(200);
    const second = await submit(VIDEO, NATIVE_KEYS.limited);
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBeTruthy();
    expect(dashscopeCalls()).toHaveLength(1);
  });
});

describe('vendor-native entries pass headers and query parameters through allowlists', () => {
  it('sends only allowed request headers and query parameters with the vendor credential, and answers only allowed response headers', async () => {
    const answer = await sendRawPath(gw.url, 'GET', '/native/echo/items/item-1?page=2&key=leak&other=x&page=3', {
      authorization: `Bearer ${NATIVE_KEYS.granted}`,
      'x-echo-mode': 'fast',
      'x-echo-key': 'client-forged-credential',
      'x-other': 'no',
      cookie: 'a=b',
    });
    expect(answer.status).toBe(200);
    const sent = gw.echo[0];
    expect(sent.url).toBe('/items/item-1?page=2&page=3');
    expect(sent.headers['x-echo-key']).toBe(ECHO_VENDOR_SECRET);
    expect(sent.headers['x-echo-mode']).toBe('fast');
    for (const stripped of ['authorization', 'x-other', 'cookie']) expect(sent.headers[stripped]).toBeUndefined();
    expect(answer.headers['x-vendor-trace']).toBe('trace-1');
    expect(answer.headers['x-vendor-internal']).toBeUndefined();
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect(answer.headers['x-ratelimit-remaining-requests']).not.toBe('7');
    expect(JSON.stringify(answer)).not.toContain(ECHO_VENDOR_SECRET);
  });

  it('binds a task id of an entry that names no model to the key that created it', async () => {
    const created = await sendRawPath(gw.url, 'POST', '/native/echo/jobs', { authorization: `Bearer ${NATIVE_KEYS.granted}`, 'content-type': 'application/json' }, '{"work":1}');
    expect(created.status).toBe(200);
    const id: string = created.json.job.id;
    expect(id).toMatch(/^task_/);
    const mine = await sendRawPath(gw.url, 'GET', `/native/echo/jobs/${id}`, { authorization: `Bearer ${NATIVE_KEYS.granted}` });
    expect(mine.status).toBe(200);
    expect(mine.json).toEqual({ path: '/jobs/vendor-job-1', job: { id, state: 'queued' } });
    const theirs = await sendRawPath(gw.url, 'GET', `/native/echo/jobs/${id}`, { authorization: `Bearer ${NATIVE_KEYS.other}` });
    expect(theirs.status).toBe(404);
    expect(gw.echo.map((r) => r.url)).toEqual(['/jobs', '/jobs/vendor-job-1']);
  });
});

/** The vendor's own task id inside a signed gateway task id (its payload is base64url JSON, signed not hidden). */
function readVendorTaskId(id: string): string {
  return JSON.parse(Buffer.from(id.slice('task_'.length, id.indexOf('.')), 'base64url').toString())[1];
}

async function waitForEvents(count: number): Promise<void> {
  for (let i = 0; i < 100 && gw.events.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 10));
}
