import { request } from 'undici';
import WebSocket from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIMULATOR_KEYS, startSimulators } from '../../src/protocols/simulators.ts';
import type { Simulator } from '../../src/simulators/types.ts';

let sims: Awaited<ReturnType<typeof startSimulators>>;

/** One cheap request per vendor, with that vendor's auth. */
const CALLS: Record<string, (sim: Simulator, signal?: AbortSignal) => ReturnType<typeof request>> = {
  openai: (sim, signal) => request(`${sim.url}/models`, { headers: { authorization: `Bearer ${SIMULATOR_KEYS.openai}` }, signal }),
  anthropic: (sim, signal) => request(`${sim.url}/v1/models`, { headers: { 'x-api-key': SIMULATOR_KEYS.anthropic, 'anthropic-version': '2023-06-01' }, signal }),
  gemini: (sim, signal) => request(`${sim.url}/models`, { headers: { 'x-goog-api-key': SIMULATOR_KEYS.gemini }, signal }),
  dashscope: (sim, signal) => request(`${sim.url}/tasks/none`, { headers: { authorization: `Bearer ${SIMULATOR_KEYS.dashscope}` }, signal }),
};
const VENDORS = ['openai', 'anthropic', 'gemini', 'dashscope'] as const;

beforeAll(async () => {
  sims = await startSimulators();
});
afterAll(() => sims.close());

describe.each(VENDORS)('%s simulator faults', (vendor) => {
  const call = (signal?: AbortSignal) => CALLS[vendor](sims[vendor], signal);
  beforeEach(() => sims[vendor].reset());

  it('answers normally without a fault', async () => {
    const res = await call();
    expect(res.statusCode).toBe(200);
    await res.body.dump();
  });

  it('status fault: the given status with a JSON error body', async () => {
    sims[vendor].failNext({ kind: 'status', status: 500 });
    const res = await call();
    expect(res.statusCode).toBe(500);
    expect(await res.body.json()).toBeTypeOf('object');
  });

  it('reset-before-headers: the request fails without a response', async () => {
    sims[vendor].failNext({ kind: 'reset-before-headers' });
    await expect(call()).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
  });

  it('reset-mid-stream: headers arrive, the body breaks', async () => {
    sims[vendor].failNext({ kind: 'reset-mid-stream', afterEvents: 0 });
    const res = await call();
    expect(res.statusCode).toBe(200);
    await expect(res.body.text()).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
  });

  it('delay: answers after the delay, and survives a client that left meanwhile', async () => {
    sims[vendor].failNext({ kind: 'delay', ms: 80 });
    const controller = new AbortController();
    const leaving = call(controller.signal);
    while (sims[vendor].received.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expect(leaving).rejects.toMatchObject({ name: 'AbortError' });
    await new Promise((r) => setTimeout(r, 100));
    sims[vendor].failNext({ kind: 'delay', ms: 60 });
    const started = Date.now();
    const res = await call();
    expect(res.statusCode).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    await res.body.dump();
  });

  it('hang: no answer until the client gives up', async () => {
    sims[vendor].failNext({ kind: 'hang' });
    await expect(call(AbortSignal.timeout(300))).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(sims[vendor].received).toHaveLength(1);
  });

  it('garbage: 200 with a body that is not JSON', async () => {
    sims[vendor].failNext({ kind: 'garbage' });
    const res = await call();
    expect(res.statusCode).toBe(200);
    await expect(res.body.json()).rejects.toBeInstanceOf(SyntaxError);
  });
});

describe('startSimulators', () => {
  it('starts all four on 127.0.0.1 with their base paths and default keys', () => {
    expect(sims.openai.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(sims.anthropic.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sims.gemini.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1beta$/);
    expect(sims.dashscope.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
  });

  it('takes other keys, and close() stops every server', async () => {
    const other = await startSimulators({ keys: { openai: 'sk-other' } });
    const ok = await request(`${other.openai.url}/models`, { headers: { authorization: 'Bearer sk-other' } });
    expect(ok.statusCode).toBe(200);
    await ok.body.dump();
    const old = await request(`${other.openai.url}/models`, { headers: { authorization: `Bearer ${SIMULATOR_KEYS.openai}` } });
    expect(old.statusCode).toBe(401);
    await old.body.dump();
    await other.close();
    await expect(request(`${other.anthropic.url}/v1/models`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('applies a status fault to a realtime WebSocket upgrade too', async () => {
    sims.openai.failNext({ kind: 'status', status: 429 });
    const ws = new WebSocket(`${sims.openai.url.replace('http', 'ws')}/realtime?model=gpt-realtime`, { headers: { authorization: `Bearer ${SIMULATOR_KEYS.openai}` } });
    const status = await new Promise<number>((resolve) => ws.on('unexpected-response', (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }));
    expect(status).toBe(429);
  });
});
