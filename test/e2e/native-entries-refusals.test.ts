import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DASHSCOPE_SUBMIT, DASHSCOPE_TASKS, submitVideo, VIDEO_REQUEST } from '../helpers/native-clients.ts';
import { ECHO_VENDOR_SECRET, NATIVE_KEYS, sendRawPath, startNativeGateway, type NativeGateway } from '../helpers/start-native-gateway.ts';

let gw: NativeGateway;
const SUBMIT = DASHSCOPE_SUBMIT;
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
    expect(answer.headers['retry-after']).toBe('2');
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
