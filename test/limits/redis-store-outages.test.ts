import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore, type RedisStoreOptions } from '../../src/limits/redis-store.ts';
import type { LimitStore } from '../../src/limits/store.ts';
import { createLogCapture } from './log-capture.ts';
import { startTestRedis, type TestRedis } from './redis-server.ts';

type Line = { level: number; msg: string; err?: { message?: string } };

let redis: TestRedis;
let opened: LimitStore[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
});
afterEach(async () => {
  redis.resume();
  await redis.start().catch(() => undefined);
  await Promise.all(opened.map((store) => store.close()));
  opened = [];
});
afterAll(async () => {
  await redis?.stop();
});

async function openStore(options: Partial<RedisStoreOptions> = {}) {
  const capture = createLogCapture();
  const store = await createRedisStore({ url: redis.url, failOpen: true, log: capture.log, reconnectDelayMs: () => 20, commandTimeoutMs: 5000, ...options });
  opened.push(store);
  return { store, lines: capture.lines as Line[] };
}

/** Polls until `check` passes. */
async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(20);
  }
  throw new Error('condition not reached in time');
}

const admitted = (store: LimitStore) => store.admit({ id: 'outage', rpm: 1000, windowMs: 60_000 }).then(() => true, () => false);

describe('what a redis store logs of an outage', () => {
  it('logs the connection error of a redis that refuses connections at start-up', async () => {
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    // The refusal ends the start-up wait at once (an error event); the long wait only keeps a loaded machine from timing out first.
    const { lines } = await openStore({ url: `redis://127.0.0.1:${port}`, connectWaitMs: 5000 });
    expect(lines).toHaveLength(1);
    expect(lines[0].err?.message).toMatch(/ECONNREFUSED/);
  });

  it('logs "redis not ready after N ms" when redis accepts the connection but does not answer at start-up', async () => {
    redis.pause();
    const { lines } = await openStore({ connectWaitMs: 100 });
    redis.resume();
    expect(lines[0]).toMatchObject({ level: 40, err: { message: 'redis not ready after 100 ms' } });
  });

  it('logs a lost connection once as "connection closed", its end once, and a second outage again', async () => {
    const { store, lines } = await openStore();
    await redis.stop();
    await waitFor(() => lines.length === 1);
    expect(lines[0]).toMatchObject({ level: 40, err: { message: 'connection closed' } });
    expect(store.stats!.reachable).toBe(false);
    await redis.start();
    await waitFor(() => admitted(store));
    await admitted(store);
    expect(lines.slice(1)).toEqual([expect.objectContaining({ level: 30, msg: 'limit store (redis) reachable again; limits are enforced' })]);
    await redis.stop();
    await waitFor(() => lines.length === 3);
    await redis.start();
    await waitFor(() => admitted(store));
    expect(lines.map((line) => line.level)).toEqual([40, 30, 40, 30]);
  });

  it('logs a failed refresh of the slots it holds, with no request running', async () => {
    // Refreshed every 20 ms; the refresh to the frozen redis fails when its command times out (500 ms).
    const { store, lines } = await openStore({ slotTtlMs: 60, commandTimeoutMs: 500 });
    await store.admit({ id: 'held-refresh', concurrency: 1, windowMs: 60_000, slot: 'slot' });
    lines.length = 0;
    redis.pause();
    try {
      await waitFor(() => lines.length > 0, 15_000);
    } finally {
      redis.resume();
    }
    expect(lines[0]).toMatchObject({ level: 40, msg: expect.stringContaining('unreachable') });
  });

  it('once closed while redis is down, does not reconnect when redis comes back', async () => {
    const { store, lines } = await openStore();
    await redis.stop();
    await waitFor(() => lines.length === 1);
    await store.close();
    await redis.start();
    await sleep(300);
    expect(lines).toHaveLength(1);
  });
});

describe('the defaults of a redis store', () => {
  it('reconnects by itself after an outage without a reconnect delay given', async () => {
    const { store } = await openStore({ reconnectDelayMs: undefined });
    await redis.stop();
    expect(await admitted(store)).toBe(false);
    await redis.start();
    await waitFor(() => admitted(store));
  });

  it('fails a command to a redis that does not answer without a command timeout given', async () => {
    const { store } = await openStore({ commandTimeoutMs: undefined });
    redis.pause();
    try {
      await expect(store.admit({ id: 'default-timeout', rpm: 5, windowMs: 60_000 })).rejects.toMatchObject({ name: 'StoreUnavailableError' });
    } finally {
      redis.resume();
    }
  });
});
