import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompiledConfig, ModelEntry } from '../../src/config/types.ts';
import {
  defineModel,
  definePolicy,
  defineTarget,
  startPolicyGateway,
  TWIN_VENDOR,
  type PolicyGateway,
} from '../helpers/start-policy-gateway.ts';
import { readReceivedModels, sendChat, type ChatOptions } from '../helpers/send-chat.ts';

/**
 * Retries, fallbacks, weights and cooldowns through the real gateway. Two vendor names (`openai` and its
 * twin) lead to the same OpenAI simulator: the upstream model name in what it received tells the
 * targets apart; `google` is the Gemini simulator (a cross-protocol fallback).
 */
let gw: PolicyGateway;

const MODELS: ModelEntry[] = [
  defineModel('fb-500', [defineTarget('openai', 'fb500-primary')], [defineTarget(TWIN_VENDOR, 'fb500-second'), defineTarget('google', 'gemini-2.5-flash')]),
  defineModel('fb-connect-only', [defineTarget('openai', 'fbconn-primary')], [defineTarget(TWIN_VENDOR, 'fbconn-second')], definePolicy({ fallbackOn: ['connect'] })),
  defineModel('fb-timeout-only', [defineTarget('openai', 'fbto-primary')], [defineTarget(TWIN_VENDOR, 'fbto-second')], definePolicy({ fallbackOn: ['timeout'], attemptTimeoutMs: 300 })),
  defineModel('retry-429', [defineTarget('openai', 'r429-primary')], [defineTarget(TWIN_VENDOR, 'r429-second')], definePolicy({ retries: 1 })),
  defineModel('no-fallback-on-400', [defineTarget('openai', 'nf400-primary')], [defineTarget(TWIN_VENDOR, 'nf400-second')]),
  defineModel('hang', [defineTarget('openai', 'hang-primary')], [defineTarget(TWIN_VENDOR, 'hang-second')], definePolicy({ attemptTimeoutMs: 300 })),
  defineModel('weights', [defineTarget('openai', 'w-heavy', 3), defineTarget(TWIN_VENDOR, 'w-light', 1)]),
  defineModel('stream', [defineTarget('openai', 'st-primary')], [defineTarget(TWIN_VENDOR, 'st-second')]),
  defineModel('cooldown', [defineTarget('openai', 'cd-primary')], [defineTarget(TWIN_VENDOR, 'cd-second')], definePolicy({ cooldownAfter: 2, cooldownMs: 400 })),
  defineModel('deadline', [defineTarget('openai', 'dl-first')], [defineTarget(TWIN_VENDOR, 'dl-second'), defineTarget('openai', 'dl-third')], definePolicy({ attemptTimeoutMs: 400, deadlineMs: 500 })),
];

beforeAll(async () => {
  gw = await startPolicyGateway({
    configure: (config: CompiledConfig) => ({
      ...config,
      server: { ...config.server, defaultLimits: {} },
      models: { ...config.models, ...Object.fromEntries(MODELS.map((model) => [model.id, model])) },
    }),
  });
});
afterAll(() => gw.close());
beforeEach(() => {
  for (const sim of [gw.sims.openai, gw.sims.anthropic, gw.sims.gemini]) sim.reset();
});

const chat = (model: string, options: Partial<ChatOptions> = {}) => sendChat(gw.url, { key: gw.key, model, ...options });
const openaiModels = () => readReceivedModels(gw.sims.openai.received);

describe('fallback order', () => {
  it('falls back target by target on 500 and answers from the first that succeeds, in the caller style', async () => {
    gw.sims.openai.failNext({ kind: 'status', status: 500 }, 2);
    const reply = await chat('fb-500');
    expect(reply.status).toBe(200);
    expect(reply.json.object).toBe('chat.completion');
    expect(reply.json.choices[0].message.content).toContain('hello there');
    expect(openaiModels()).toEqual(['fb500-primary', 'fb500-second']);
    expect(gw.sims.gemini.received).toHaveLength(1);
    expect(gw.sims.gemini.received[0].url).toContain('/models/gemini-2.5-flash:generateContent');
  });

  it('falls back on 429 to the next target at once (Retry-After is for the same target)', async () => {
    gw.sims.openai.failNext({ kind: 'status', status: 429, headers: { 'retry-after': '2' } });
    const started = Date.now();
    const reply = await chat('fb-500');
    expect(reply.status).toBe(200);
    expect(reply.json.model).toBe('fb500-second');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(openaiModels()).toEqual(['fb500-primary', 'fb500-second']);
    expect(gw.sims.gemini.received).toHaveLength(0);
  });

  it('falls back on a connection reset before headers (fallback_on: connect)', async () => {
    gw.sims.openai.failNext({ kind: 'reset-before-headers' });
    const reply = await chat('fb-connect-only');
    expect(reply.status).toBe(200);
    expect(reply.json.model).toBe('fbconn-second');
    expect(openaiModels()).toEqual(['fbconn-primary', 'fbconn-second']);
  });

  it('falls back from a hanging vendor after the attempt timeout', async () => {
    gw.sims.openai.failNext({ kind: 'hang' });
    const started = Date.now();
    const reply = await chat('hang');
    const elapsed = Date.now() - started;
    expect(reply.status).toBe(200);
    expect(reply.json.model).toBe('hang-second');
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(3000);
    expect(openaiModels()).toEqual(['hang-primary', 'hang-second']);
  });

  it('treats an attempt timeout as a timeout condition (fallback_on: timeout)', async () => {
    gw.sims.openai.failNext({ kind: 'hang' });
    const reply = await chat('fb-timeout-only');
    expect(reply.status).toBe(200);
    expect(reply.json.model).toBe('fbto-second');
    expect(openaiModels()).toEqual(['fbto-primary', 'fbto-second']);
  });

  it('does not fall back on a client error and passes the vendor error on in the caller style', async () => {
    gw.sims.openai.failNext({ kind: 'status', status: 400 });
    const reply = await chat('no-fallback-on-400', { style: 'anthropic' });
    expect(reply.status).toBe(400);
    expect(reply.json.type).toBe('error');
    expect(reply.json.error.type).toBe('invalid_request_error');
    expect(openaiModels()).toEqual(['nf400-primary']);
  });

  it('answers with the last error when every target failed', async () => {
    gw.sims.openai.failNext({ kind: 'status', status: 503 }, 2);
    gw.sims.gemini.failNext({ kind: 'status', status: 500 });
    const reply = await chat('fb-500', { style: 'gemini' });
    expect(reply.status).toBe(500);
    expect(reply.json.error.code).toBe(500);
    expect(openaiModels()).toEqual(['fb500-primary', 'fb500-second']);
    expect(gw.sims.gemini.received).toHaveLength(1);
  });
});

describe('retries', () => {
  it('retries a 429 on the same target after the Retry-After the vendor asked for', async () => {
    gw.sims.openai.failNext({ kind: 'status', status: 429, headers: { 'retry-after': '1' } });
    const started = Date.now();
    const reply = await chat('retry-429');
    expect(reply.status).toBe(200);
    expect(reply.json.model).toBe('r429-primary');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(openaiModels()).toEqual(['r429-primary', 'r429-primary']);
  });

  it('moves on to the next target at once when the Retry-After would pass the deadline', async () => {
    gw.sims.openai.failNext({ kind: 'status', status: 429, headers: { 'retry-after': '3600' } });
    const started = Date.now();
    const reply = await chat('retry-429');
    expect(reply.status).toBe(200);
    expect(reply.json.model).toBe('r429-second');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(openaiModels()).toEqual(['r429-primary', 'r429-second']);
  });

  it('waits the precise retry-after-ms between tries', async () => {
    gw.sims.openai.failNext({ kind: 'status', status: 429, headers: { 'retry-after-ms': '250', 'retry-after': '1' } });
    const started = Date.now();
    const reply = await chat('retry-429');
    const elapsed = Date.now() - started;
    expect(reply.status).toBe(200);
    expect(reply.json.model).toBe('r429-primary');
    expect(elapsed).toBeGreaterThanOrEqual(240);
    expect(elapsed).toBeLessThan(1000);
    expect(openaiModels()).toEqual(['r429-primary', 'r429-primary']);
  });
});

describe('weights', () => {
  it('splits requests between weighted targets 3:1 within statistical bounds, one vendor call each', async () => {
    const total = 400;
    const replies = [];
    for (let batch = 0; batch < total / 20; batch++) {
      replies.push(...(await Promise.all(Array.from({ length: 20 }, () => chat('weights')))));
    }
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
    const models = openaiModels();
    expect(models).toHaveLength(total);
    const heavy = models.filter((model) => model === 'w-heavy').length;
    // Binomial(400, 0.75): mean 300, sd 8.7; ±5 sd fails once in a million runs.
    expect(heavy).toBeGreaterThanOrEqual(257);
    expect(heavy).toBeLessThanOrEqual(343);
    expect(models.filter((model) => model === 'w-light').length).toBe(total - heavy);
    const answered = replies.map((reply) => reply.json.model);
    expect(answered.filter((model) => model === 'w-heavy').length).toBe(heavy);
  });
});

describe('streams', () => {
  it('never makes a second attempt once the client got bytes: a stream reset midway ends with an error event', async () => {
    gw.sims.openai.failNext({ kind: 'reset-mid-stream', afterEvents: 2 });
    const reply = await chat('stream', { stream: true });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('text/event-stream');
    const events = reply.text.split('\n\n').filter(Boolean);
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(events[0].slice('data: '.length)).object).toBe('chat.completion.chunk');
    const last = JSON.parse(events[events.length - 1].slice('data: '.length));
    expect(last.error.code).toBe('upstream_stream_failed');
    expect(reply.text).not.toContain('[DONE]');
    expect(openaiModels()).toEqual(['st-primary']);
  });

  it('falls back when a stream fails before its first byte', async () => {
    gw.sims.openai.failNext({ kind: 'reset-mid-stream', afterEvents: 0 });
    const reply = await chat('stream', { stream: true });
    expect(reply.status).toBe(200);
    expect(reply.broken).toBe(false);
    expect(reply.text).toContain('"model":"st-second"');
    expect(reply.text).not.toContain('st-primary');
    expect(reply.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(openaiModels()).toEqual(['st-primary', 'st-second']);
  });

  it('falls back when a streaming vendor answers 500', async () => {
    gw.sims.openai.failNext({ kind: 'status', status: 500 });
    const reply = await chat('stream', { stream: true, style: 'openai' });
    expect(reply.status).toBe(200);
    expect(reply.text).toContain('"model":"st-second"');
    expect(openaiModels()).toEqual(['st-primary', 'st-second']);
  });
});

describe('cooldown', () => {
  /** One request whose primary attempt gets a 500 (the twin shares the simulator, so one fault each time). */
  async function failPrimaryOnce() {
    gw.sims.openai.failNext({ kind: 'status', status: 500 });
    return chat('cooldown');
  }

  it('skips a target after repeated failures, probes it once the cooldown is over, and uses it again when it recovered', async () => {
    expect((await failPrimaryOnce()).json.model).toBe('cd-second');
    expect((await failPrimaryOnce()).json.model).toBe('cd-second');
    expect(openaiModels()).toEqual(['cd-primary', 'cd-second', 'cd-primary', 'cd-second']);

    const cooling = await chat('cooldown');
    expect(cooling.json.model).toBe('cd-second');
    expect(openaiModels().slice(4)).toEqual(['cd-second']);

    await new Promise((resolve) => setTimeout(resolve, 450));
    const probe = await chat('cooldown');
    expect(probe.status).toBe(200);
    expect(probe.json.model).toBe('cd-primary');
    const after = await chat('cooldown');
    expect(after.json.model).toBe('cd-primary');
    expect(openaiModels().slice(5)).toEqual(['cd-primary', 'cd-primary']);
  });

  it('puts a probe that fails straight back into cooldown', async () => {
    await failPrimaryOnce();
    await failPrimaryOnce();
    await new Promise((resolve) => setTimeout(resolve, 450));
    const probe = await failPrimaryOnce();
    expect(probe.json.model).toBe('cd-second');
    const next = await chat('cooldown');
    expect(next.json.model).toBe('cd-second');
    expect(openaiModels().slice(4)).toEqual(['cd-primary', 'cd-second', 'cd-second']);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect((await chat('cooldown')).json.model).toBe('cd-primary');
  });
});

describe('deadline', () => {
  it('keeps one deadline across attempts: a second hanging target gets only what is left, a third is never tried', async () => {
    gw.sims.openai.failNext({ kind: 'hang' }, 2);
    const started = Date.now();
    const reply = await chat('deadline', { style: 'anthropic' });
    const elapsed = Date.now() - started;
    expect(reply.status).toBe(504);
    expect(reply.json.type).toBe('error');
    expect(reply.json.error.type).toBe('timeout_error');
    // 400 ms for the first attempt, the 100 ms left for the second (two full attempts would take 800 ms).
    expect(elapsed).toBeGreaterThanOrEqual(490);
    expect(elapsed).toBeLessThan(750);
    expect(openaiModels()).toEqual(['dl-first', 'dl-second']);
  });
});

describe('the client leaving', () => {
  it('ends every attempt: no fallback is tried after the client closed the request', async () => {
    gw.sims.openai.failNext({ kind: 'hang' });
    const client = new AbortController();
    const before = gw.events.length;
    const leaving = chat('hang', { signal: client.signal }).catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.abort();
    expect(await leaving).toBeInstanceOf(Error);
    await gw.waitForEvents(before + 1);
    expect(gw.events.at(-1)).toMatchObject({ model: 'hang', status: 499, error: 'client_closed_request' });
    // Past the 300 ms attempt timeout: had the request gone on, the fallback would have been called by now.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(openaiModels()).toEqual(['hang-primary']);
  });
});
