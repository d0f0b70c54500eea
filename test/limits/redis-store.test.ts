import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { KeyEntry } from '../../src/config/types.ts';
import { GatewayError } from '../../src/errors.ts';
import { createLimiter } from '../../src/limits/limiter.ts';
import { createRedisStore, type RedisStoreOptions } from '../../src/limits/redis-store.ts';
import type { LimitStore } from '../../src/limits/store.ts';
import { createLogCapture } from './log-capture.ts';
import { startTestRedis, type TestRedis } from './redis-server.ts';

let redis: TestRedis;
let opened: LimitStore[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
});
afterEach(async () => {
  await Promise.all(opened.map((store) => store.close()));
  opened = [];
});
afterAll(async () => {
  await redis?.stop();
});

async function openStore(extra: Partial<RedisStoreOptions> = {}) {
  const capture = createLogCapture();
  const store = await createRedisStore({
    url: redis.url,
    failOpen: true,
    commandTimeoutMs: 5000,
    reconnectDelayMs: () => 20,
    log: capture.log,
    ...extra,
  });
  opened.push(store);
  return { store, lines: capture.lines };
}

function makeKey(limits: KeyEntry['limits']): KeyEntry {
  return { name: `key-${randomUUID()}`, secret: { env: 'UNUSED' }, models: ['*'], limits, strict: false };
}

async function settle<T>(promises: (T | Promise<T>)[]) {
  const results = await Promise.allSettled(promises);
  return {
    admitted: results.filter((result) => result.status === 'fulfilled').map((result) => result.value as T),
    refused: results.filter((result) => result.status === 'rejected').map((result) => result.reason as GatewayError),
  };
}

/** Polls until `check` passes (the client reconnects on its own timer). */
async function waitFor(check: () => Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(25);
  }
  throw new Error('condition not reached in time');
}

describe('redis store shared by several processes', () => {
  it('two limiters on one redis share one request limit exactly', async () => {
    const key = makeKey({ rpm: 50 });
    const one = createLimiter((await openStore()).store, {});
    const two = createLimiter((await openStore()).store, {});
    const calls = Array.from({ length: 80 }, (_, i) => (i % 2 === 0 ? one : two).admit(key));
    const { admitted, refused } = await settle(calls);
    expect(admitted).toHaveLength(50);
    expect(refused).toHaveLength(30);
    expect(refused.every((error) => error.status === 429 && error.code === 'rate_limit_exceeded')).toBe(true);
    const remaining = admitted.map((admission) => Number(admission.headers['x-ratelimit-remaining-requests']));
    expect(new Set(remaining).size).toBe(50);
    expect(Math.min(...remaining)).toBe(0);
  });

  it('two limiters on one redis share one concurrency limit and one token budget', async () => {
    const key = makeKey({ concurrency: 3, tpm: 1000 });
    const one = createLimiter((await openStore()).store, {});
    const two = createLimiter((await openStore()).store, {});
    const admissions = await Promise.all([one, two, one, two, one].map((limiter) => limiter.admit(key)));
    const acquired = await Promise.allSettled(admissions.map((admission) => admission.acquire()));
    const admitted = admissions.filter((_, i) => acquired[i].status === 'fulfilled');
    const refused = acquired.flatMap((result) => (result.status === 'rejected' ? [result.reason as GatewayError] : []));
    expect(admitted).toHaveLength(3);
    expect(refused).toHaveLength(2);
    expect(refused.every((error) => error.status === 429 && /concurrent/.test(error.message))).toBe(true);
    admitted[0].release();
    const again = await two.admit(key);
    await again.acquire();
    expect(again.headers['x-ratelimit-remaining-tokens']).toBe('1000');
    admitted[1].charge(600);
    admitted[2].charge(400);
    await sleep(20);
    admitted[1].release();
    await expect(one.admit(key)).rejects.toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
  });

  it('keeps the slot of a long request alive, and expires the slots of a crashed process', async () => {
    const key = makeKey({ concurrency: 1 });
    // A TTL well above the refresh period (a third of it), so that a loaded machine's late timers do not matter.
    const crashing = createLimiter((await openStore({ slotTtlMs: 1200 })).store, {});
    const survivor = createLimiter((await openStore({ slotTtlMs: 1200 })).store, {});
    await (await crashing.admit(key)).acquire();
    await sleep(2500);
    await expect(survivor.admit(key)).rejects.toMatchObject({ status: 429 });
    await opened[0].close();
    await sleep(2000);
    const admission = await survivor.admit(key);
    await admission.acquire();
    expect(admission.headers).toEqual({});
  });

  it('fail-open admits while redis is down, logs the outage once, and enforces limits after restart', async () => {
    const { store, lines } = await openStore({ failOpen: true });
    const limiter = createLimiter(store, {});
    const key = makeKey({ rpm: 2 });
    await limiter.admit(key);
    await limiter.admit(key);
    await expect(limiter.admit(key)).rejects.toMatchObject({ status: 429 });

    await redis.stop();
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      const admission = await limiter.admit(key);
      expect(Date.now() - started).toBeLessThan(250);
      expect(admission.headers).toEqual({});
      await sleep(30);
    }
    const warnings = lines.filter((line) => line.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toMatch(/unreachable; fail-open/);

    await redis.start();
    await waitFor(async () => lines.some((line) => line.level === 30 && /reachable again/.test(line.msg)));
    const fresh = makeKey({ rpm: 1 });
    expect((await limiter.admit(fresh)).headers['x-ratelimit-remaining-requests']).toBe('0');
    await expect(limiter.admit(fresh)).rejects.toMatchObject({ status: 429 });
    expect(lines.filter((line) => line.level === 40)).toHaveLength(1);
  });

  it('fail-closed answers 503 while redis is down and admits again after restart', async () => {
    const { store, lines } = await openStore({ failOpen: false });
    const limiter = createLimiter(store, {});
    const key = makeKey({ rpm: 10 });
    await limiter.admit(key);

    await redis.stop();
    const refusal = await Promise.resolve(limiter.admit(key)).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(GatewayError);
    expect(refusal).toMatchObject({ status: 503, code: 'rate_limit_unavailable', retryAfter: 1 });
    expect(lines.filter((line) => line.level === 40)[0].msg).toMatch(/fail-closed/);

    await redis.start();
    await waitFor(async () => {
      const result = await Promise.resolve(limiter.admit(key)).then(() => true, () => false);
      return result;
    });
    expect((await limiter.admit(key)).headers['x-ratelimit-limit-requests']).toBe('10');
  });

  it('starts serving while redis is down at start-up and enforces limits once it is up', async () => {
    await redis.stop();
    const started = Date.now();
    const { store, lines } = await openStore({ failOpen: true });
    expect(Date.now() - started).toBeLessThan(1000);
    const limiter = createLimiter(store, {});
    const key = makeKey({ rpm: 1 });
    expect((await limiter.admit(key)).headers).toEqual({});
    expect(lines.filter((line) => line.level === 40)).toHaveLength(1);
    await redis.start();
    await waitFor(async () => (await limiter.admit(key)).headers['x-ratelimit-limit-requests'] === '1');
    await expect(limiter.admit(key)).rejects.toMatchObject({ status: 429 });
  });

  it('does not let a redis that stops answering hang a request', async () => {
    const { store } = await openStore({ failOpen: false, commandTimeoutMs: 150 });
    const limiter = createLimiter(store, {});
    const key = makeKey({ rpm: 1000 });
    // On a loaded machine a command may take longer than 150 ms even while redis answers: retried.
    await waitFor(async () => Promise.resolve(limiter.admit(key)).then(() => true, () => false));
    redis.pause();
    try {
      const started = Date.now();
      await expect(limiter.admit(key)).rejects.toMatchObject({ status: 503 });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      redis.resume();
    }
    await waitFor(async () => Promise.resolve(limiter.admit(key)).then(() => true, () => false));
  });

  it('reports a target in cooldown to every process sharing redis', async () => {
    const a = (await openStore()).store;
    const b = (await openStore()).store;
    const target = `vendor/${randomUUID()}`;
    await a.failTarget(target, 1, 5000);
    expect((await b.checkTarget(target, 1000)).state).toBe('cooling');
  });
});
