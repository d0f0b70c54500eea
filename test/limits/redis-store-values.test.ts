import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '../../src/limits/redis-store.ts';
import type { LimitStore } from '../../src/limits/store.ts';
import { createLogCapture } from './log-capture.ts';
import { startTestRedis, type TestRedis } from './redis-server.ts';

let redis: TestRedis;
let raw: Redis;
let opened: LimitStore[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
  raw = new Redis(redis.url);
});
afterEach(async () => {
  await Promise.all(opened.map((store) => store.close()));
  opened = [];
});
afterAll(async () => {
  raw?.disconnect();
  await redis?.stop();
});

async function openStore(): Promise<LimitStore> {
  const store = await createRedisStore({ url: redis.url, failOpen: true, log: createLogCapture().log, reconnectDelayMs: () => 20, commandTimeoutMs: 5000 });
  opened.push(store);
  return store;
}

describe("a redis store's plain values", () => {
  it('sets several values in one call under the gw:v: prefix, each with its TTL, and reads them back', async () => {
    const values = (await openStore()).values!;
    await values.set([['resp-a', 'one'], ['resp-b', 'two']], 60_000);
    expect(await values.get('resp-a')).toBe('one');
    expect(await values.get('resp-b')).toBe('two');
    expect(await raw.get('gw:v:resp-a')).toBe('one');
    const ttl = await raw.pttl('gw:v:resp-b');
    expect(ttl).toBeGreaterThan(1000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('reads an absent value as undefined (not null)', async () => {
    const values = (await openStore()).values!;
    expect(await values.get('never-set')).toBeUndefined();
  });

  it('deletes the keys it is given under its prefix, and leaves the others', async () => {
    const values = (await openStore()).values!;
    await values.set([['del-a', '1'], ['del-b', '2'], ['del-c', '3']], 60_000);
    await values.delete(['del-a', 'del-b']);
    expect(await values.get('del-a')).toBeUndefined();
    expect(await raw.exists('gw:v:del-b')).toBe(0);
    expect(await values.get('del-c')).toBe('3');
  });

  it('sends no command for an empty set or delete', async () => {
    const store = await openStore();
    const before = store.stats!.commands;
    await store.values!.set([], 60_000);
    await expect(store.values!.delete([])).resolves.toBeUndefined();
    expect(store.stats!.commands).toBe(before);
  });

  it('rounds a fractional TTL and keeps a TTL under a millisecond at one millisecond', async () => {
    const values = (await openStore()).values!;
    await values.set([['ttl-frac', 'x']], 5000.6);
    expect(await raw.pttl('gw:v:ttl-frac')).toBeLessThanOrEqual(5001);
    expect(await raw.pttl('gw:v:ttl-frac')).toBeGreaterThan(1000);
    await values.set([['ttl-tiny', 'x']], 0.2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await values.get('ttl-tiny')).toBeUndefined();
  });
});

describe("a redis store's stats", () => {
  it('counts each command and its round-trip time in seconds, and is reachable once connected', async () => {
    const store = await openStore();
    expect(store.stats).toEqual({ commands: 0, errors: 0, seconds: 0, reachable: true });
    const startedAt = performance.now();
    await store.admit({ id: 'stats-one', rpm: 5, windowMs: 60_000 });
    await store.values!.get('stats-absent');
    const elapsedSeconds = (performance.now() - startedAt) / 1000;
    const { commands, errors, seconds, reachable } = store.stats!;
    expect({ commands, errors, reachable }).toEqual({ commands: 2, errors: 0, reachable: true });
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(elapsedSeconds);
  });

  it('counts a failed command as an error with its time, and is unreachable until a command succeeds again', async () => {
    const store = await createRedisStore({ url: redis.url, failOpen: true, log: createLogCapture().log, commandTimeoutMs: 50, reconnectDelayMs: () => 20 });
    opened.push(store);
    redis.pause();
    const startedAt = performance.now();
    try {
      await expect(store.admit({ id: 'stats-fail', rpm: 5, windowMs: 60_000 })).rejects.toMatchObject({ name: 'StoreUnavailableError' });
    } finally {
      redis.resume();
    }
    const elapsedSeconds = (performance.now() - startedAt) / 1000;
    expect(store.stats).toMatchObject({ commands: 1, errors: 1, reachable: false });
    expect(store.stats!.seconds).toBeGreaterThan(0);
    expect(store.stats!.seconds).toBeLessThanOrEqual(elapsedSeconds);
    // Commands to the resumed redis may still time out on a loaded machine: retried until one succeeds.
    const ok = () => store.admit({ id: 'stats-fail', rpm: 5, windowMs: 60_000 }).then(() => true, () => false);
    while (!(await ok()));
    expect(store.stats!.commands - store.stats!.errors).toBe(1);
    expect(store.stats!.reachable).toBe(true);
  });
});

describe("a redis store's key names", () => {
  it('keeps the request, token and slot keys of one id apart from every other id', async () => {
    const store = await openStore();
    for (const id of ['names-a', 'names-b']) {
      await store.admit({ id, rpm: 5, tpm: 100, concurrency: 2, windowMs: 60_000, slot: 's' });
      await store.charge(id, 10, 60_000);
    }
    expect((await raw.keys('*names-a*')).sort()).toEqual(['gw:{names-a}:c', 'gw:{names-a}:rz', 'gw:{names-a}:tl', 'gw:{names-a}:tz']);
    expect((await store.admit({ id: 'names-b', tpm: 100, windowMs: 60_000 })).tokens?.remaining).toBe(90);
  });

  it('keeps the health of each target under its own key', async () => {
    const store = await openStore();
    expect((await store.failTarget('target-x', 1, 60_000)).state).toBe('cooling');
    expect(await store.checkTarget('target-y', 1000)).toMatchObject({ state: 'ready', failures: 0 });
    expect(await raw.exists('gw:target:{target-x}')).toBe(1);
    await store.clearTarget('target-x');
    expect(await raw.exists('gw:target:{target-x}')).toBe(0);
  });

  it('reports the spend only of a reservation with a budget', async () => {
    const store = await openStore();
    const reserve = { id: 'spend-none', tpm: 100, entry: 'e1', tokens: 10, windowMs: 60_000, costNano: 5 };
    expect(await store.reserve(reserve)).not.toHaveProperty('spentNano');
  });
});
