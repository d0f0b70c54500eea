import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../../src/protocols/openai/simulator/index.ts';
import { readFixture, shapeOf } from './helpers.ts';

const KEY = 'sk-sim-openai';
let sim: OpenAISimulator;
const CHAT = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'one two three four' }] };

function chat(stream = false, signal?: AbortSignal) {
  return request(`${sim.url}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...CHAT, stream }),
    signal,
  });
}

/** Reads a body chunk by chunk, returning the text that arrived and the error that ended it (if any). */
async function readUntilError(body: AsyncIterable<Buffer>): Promise<{ text: string; error?: Error }> {
  let text = '';
  try {
    for await (const chunk of body) text += chunk.toString();
    return { text };
  } catch (error) {
    return { text, error: error as Error };
  }
}

beforeAll(async () => {
  sim = await startOpenAISimulator();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('simulator faults', () => {
  it('status fault answers the vendor error shape for that status by default, then recovers', async () => {
    sim.failNext({ kind: 'status', status: 429 });
    const failed = await chat();
    expect(failed.statusCode).toBe(429);
    const body = (await failed.body.json()) as any;
    expect(shapeOf(body)).toEqual(shapeOf(readFixture('openai/error-401.json')));
    expect(body.error.code).toBe('rate_limit_exceeded');
    const ok = await chat();
    expect(ok.statusCode).toBe(200);
    await ok.body.dump();
    expect(sim.received).toHaveLength(2);
  });

  it('status fault sends a given body and headers', async () => {
    sim.failNext({ kind: 'status', status: 503, body: { error: { message: 'custom' } }, headers: { 'retry-after': '7' } });
    const res = await chat();
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('7');
    expect(await res.body.json()).toEqual({ error: { message: 'custom' } });
  });

  it('faults apply to the next requests whatever the path, `times` of them', async () => {
    sim.failNext({ kind: 'status', status: 500 }, 2);
    const a = await request(`${sim.url}/models`, { headers: { authorization: `Bearer ${KEY}` } });
    const b = await chat();
    const c = await chat();
    expect([a.statusCode, b.statusCode, c.statusCode]).toEqual([500, 500, 200]);
    await Promise.all([a.body.dump(), b.body.dump(), c.body.dump()]);
  });

  it('reset-before-headers drops the connection before any response byte', async () => {
    sim.failNext({ kind: 'reset-before-headers' });
    await expect(chat()).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
    expect(sim.received).toHaveLength(1);
  });

  it('reset-mid-stream delivers headers and N events, then breaks the stream', async () => {
    sim.failNext({ kind: 'reset-mid-stream', afterEvents: 2 });
    const res = await chat(true);
    expect(res.statusCode).toBe(200);
    const { text, error } = await readUntilError(res.body);
    expect(error).toBeDefined();
    expect(text.split('\n\n').filter((e) => e.startsWith('data: '))).toHaveLength(2);
  });

  it('reset-mid-stream on a whole JSON body sends half of it, then breaks', async () => {
    sim.failNext({ kind: 'reset-mid-stream', afterEvents: 0 });
    const res = await chat(false);
    expect(res.statusCode).toBe(200);
    const { text, error } = await readUntilError(res.body);
    expect(error).toBeDefined();
    expect(Number(res.headers['content-length'])).toBeGreaterThan(text.length);
  });

  it('delay answers normally after the given milliseconds', async () => {
    sim.failNext({ kind: 'delay', ms: 150 });
    const started = Date.now();
    const res = await chat();
    expect(res.statusCode).toBe(200);
    expect(((await res.body.json()) as any).choices[0].message.content).toBe('Echo: one two three four');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('hang never answers, and close() still ends the connection', async () => {
    const hung = await startOpenAISimulator();
    hung.failNext({ kind: 'hang' });
    const pending = request(`${hung.url}/models`, { headers: { authorization: `Bearer ${KEY}` } });
    const outcome = await Promise.race([pending.then(() => 'answered', () => 'failed'), new Promise((r) => setTimeout(() => r('waiting'), 200))]);
    expect(outcome).toBe('waiting');
    expect(hung.received).toHaveLength(1);
    await hung.close();
    await expect(pending).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
  });

  it('garbage answers 200 with a body that is not JSON', async () => {
    sim.failNext({ kind: 'garbage' });
    const res = await chat();
    expect(res.statusCode).toBe(200);
    const text = await res.body.text();
    expect(() => JSON.parse(text)).toThrow();
  });

  it('reset() clears received requests and queued faults', async () => {
    sim.failNext({ kind: 'status', status: 500 });
    await (await request(`${sim.url}/models`, { headers: { authorization: `Bearer ${KEY}` } })).body.dump();
    sim.failNext({ kind: 'status', status: 500 });
    sim.reset();
    expect(sim.received).toEqual([]);
    const res = await chat();
    expect(res.statusCode).toBe(200);
    await res.body.dump();
  });
});
