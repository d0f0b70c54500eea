import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore, type RedisStoreOptions } from '../../src/limits/redis-store.ts';
import type { LimitStore } from '../../src/limits/store.ts';
import { createLogCapture } from './log-capture.ts';
import { startTestRedis, type TestRedis } from './redis-server.ts';

let redis: TestRedis;
const opened: LimitStore[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await redis?.stop();
});

async function openStore(options: Partial<RedisStoreOptions> = {}) {
  const capture = createLogCapture();
  const store = await createRedisStore({ url: redis.url, failOpen: true, log: capture.log, reconnectDelayMs: () => 20, commandTimeoutMs: 5000, ...options });
  opened.push(store);
  return { store, lines: capture.lines };
}

describe('the slots a redis store keeps alive', () => {
  it('refreshes every slot it holds for a key, not only the last one taken', async () => {
    // A TTL well above the refresh period (a third of it), so that a loaded machine's late timers do not matter.
    const { store } = await openStore({ slotTtlMs: 1200 });
    const take = (slot: string) => store.admit({ id: 'many-slots', concurrency: 3, windowMs: 60_000, slot });
    await take('a');
    await take('b');
    await sleep(3000);
    expect((await take('c')).concurrency).toEqual({ limit: 3, inUse: 3 });
  });

  it('does not keep alive a slot it was refused, nor a check without a slot', async () => {
    const { store } = await openStore({ slotTtlMs: 1200 });
    const admit = (slot?: string) => store.admit({ id: 'refused-slot', concurrency: 1, windowMs: 60_000, slot });
    expect((await admit('held')).verdict).toBe('ok');
    expect((await admit('refused')).verdict).toBe('concurrency');
    expect((await admit()).verdict).toBe('concurrency');
    await store.release('refused-slot', 'held');
    await sleep(2000);
    expect(await admit('next')).toMatchObject({ verdict: 'ok', concurrency: { limit: 1, inUse: 1 } });
  });
});

describe('redis store edges', () => {
  it('names its keys under the gw: prefix by default, and keeps no slot for a key without a concurrency limit', async () => {
    const { store } = await openStore({ slotTtlMs: 60 });
    await store.admit({ id: 'prefixed', rpm: 5, windowMs: 60_000, slot: 's' });
    await sleep(100);
    const client = new Redis(redis.url);
    try {
      expect(await client.keys('*prefixed*')).toEqual(['gw:{prefixed}:rz']);
    } finally {
      client.disconnect();
    }
  });

  it('reports no concurrency for a key without a concurrency limit', async () => {
    const { store } = await openStore();
    expect((await store.admit({ id: 'no-concurrency', rpm: 5, windowMs: 60_000, slot: 's' })).concurrency).toBeUndefined();
  });

  it('charging nothing (0, negative, NaN) opens no token window', async () => {
    const { store } = await openStore();
    for (const amount of [0, -5, Number.NaN]) await store.charge('no-charge', amount, 60_000);
    expect((await store.admit({ id: 'no-charge', tpm: 10, windowMs: 60_000 })).tokens).toEqual({ allowed: true, limit: 10, remaining: 10, resetSeconds: 0 });
  });

  it('releasing a slot of a key it never admitted does nothing', async () => {
    const { store } = await openStore();
    await expect(store.release('never-admitted', 'slot')).resolves.toBeUndefined();
  });

  it('logs nothing when it connects to a redis that is up, and nothing when it closes', async () => {
    const { store, lines } = await openStore();
    await store.admit({ id: 'quiet', rpm: 1, windowMs: 60_000 });
    await store.close();
    await sleep(50);
    expect(lines).toEqual([]);
  });

  it('logs the error of an outage with its warning', async () => {
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const down = `redis://127.0.0.1:${port}`;
    const { lines } = await openStore({ url: down, connectWaitMs: 100 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: expect.stringContaining('limit store (redis) unreachable') });
    expect((lines[0] as { err?: { message?: string } }).err?.message).toBeTruthy();
  });
});
