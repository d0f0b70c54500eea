import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import { createRedisStore } from '../../src/limits/redis-store.ts';
import type { AdmitRequest, LimitStore } from '../../src/limits/store.ts';
import { createLogCapture } from './log-capture.ts';
import { startTestRedis, type TestRedis } from './redis-server.ts';

let redis: TestRedis;
const stores: LimitStore[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
});

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await redis?.stop();
});

const factories: Array<[string, () => Promise<LimitStore>]> = [
  ['memory store', async () => createMemoryStore()],
  ['redis store', async () => createRedisStore({ url: redis.url, failOpen: true, log: createLogCapture().log, commandTimeoutMs: 5000 })],
];

describe.each(factories)('%s', (_name, createStore) => {
  let store: LimitStore;
  let id: string;
  let slotNumber = 0;
  const request = (extra: Partial<AdmitRequest>): AdmitRequest & { slot: string } => ({
    id,
    windowMs: 60_000,
    slot: `slot-${++slotNumber}`,
    ...extra,
  });

  beforeAll(async () => {
    store = await createStore();
    stores.push(store);
  });

  const freshKey = () => {
    id = `key-${randomUUID()}`;
  };

  it('admits up to rpm in one window and refuses the next with the time to reset', async () => {
    freshKey();
    const first = await store.admit(request({ rpm: 3 }));
    expect(first.verdict).toBe('ok');
    expect(first.requests).toMatchObject({ allowed: true, limit: 3, remaining: 2 });
    expect(first.requests!.resetSeconds).toBeGreaterThan(59);
    expect(first.requests!.resetSeconds).toBeLessThanOrEqual(60);
    await store.admit(request({ rpm: 3 }));
    const third = await store.admit(request({ rpm: 3 }));
    expect(third.requests).toMatchObject({ allowed: true, remaining: 0 });
    const fourth = await store.admit(request({ rpm: 3 }));
    expect(fourth.verdict).toBe('rpm');
    expect(fourth.requests).toMatchObject({ allowed: false, limit: 3, remaining: 0 });
    expect(fourth.requests!.resetSeconds).toBeGreaterThan(59);
  });

  it('opens a new window once the old one has ended', async () => {
    freshKey();
    expect((await store.admit(request({ rpm: 1, windowMs: 1000 }))).verdict).toBe('ok');
    expect((await store.admit(request({ rpm: 1, windowMs: 1000 }))).verdict).toBe('rpm');
    await sleep(1200);
    const next = await store.admit(request({ rpm: 1, windowMs: 1000 }));
    expect(next.verdict).toBe('ok');
    expect(next.requests!.remaining).toBe(0);
  });

  it('counts nothing for a request another limit refused', async () => {
    freshKey();
    expect((await store.admit(request({ rpm: 5, concurrency: 1 }))).verdict).toBe('ok');
    const refused = await store.admit(request({ rpm: 5, concurrency: 1 }));
    expect(refused.verdict).toBe('concurrency');
    expect(refused.concurrency).toEqual({ limit: 1, inUse: 1 });
    expect(refused.requests).toMatchObject({ allowed: false, remaining: 4 });
  });

  it('admits while charged tokens are under tpm and refuses once they reach it', async () => {
    freshKey();
    const before = await store.admit(request({ tpm: 100 }));
    expect(before.tokens).toEqual({ allowed: true, limit: 100, remaining: 100, resetSeconds: 0 });
    await store.charge(id, 60, 60_000);
    const partly = await store.admit(request({ tpm: 100 }));
    expect(partly.verdict).toBe('ok');
    expect(partly.tokens).toMatchObject({ remaining: 40 });
    expect(partly.tokens!.resetSeconds).toBeGreaterThan(59);
    await store.charge(id, 45, 60_000);
    const spent = await store.admit(request({ tpm: 100 }));
    expect(spent.verdict).toBe('tpm');
    expect(spent.tokens).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('ends the token window after windowMs', async () => {
    freshKey();
    await store.charge(id, 500, 1000);
    expect((await store.admit(request({ tpm: 100 }))).verdict).toBe('tpm');
    await sleep(1200);
    expect((await store.admit(request({ tpm: 100 }))).verdict).toBe('ok');
  });

  it('frees a concurrency slot on release, and a second release of it frees nothing more', async () => {
    freshKey();
    const a = request({ concurrency: 2 });
    const b = request({ concurrency: 2 });
    expect((await store.admit(a)).concurrency).toEqual({ limit: 2, inUse: 1 });
    expect((await store.admit(b)).concurrency).toEqual({ limit: 2, inUse: 2 });
    expect((await store.admit(request({ concurrency: 2 }))).verdict).toBe('concurrency');
    await store.release(id, a.slot);
    await store.release(id, a.slot);
    expect((await store.admit(request({ concurrency: 2 }))).concurrency).toEqual({ limit: 2, inUse: 2 });
    expect((await store.admit(request({ concurrency: 2 }))).verdict).toBe('concurrency');
  });

  it('cools a target after failures in a row, then grants exactly one probe', async () => {
    const target = `vendor/${randomUUID()}`;
    expect(await store.checkTarget(target, 1000)).toEqual({ state: 'ready', failures: 0, retryInMs: 0 });
    expect((await store.failTarget(target, 2, 1000)).state).toBe('ready');
    const cooled = await store.failTarget(target, 2, 1000);
    expect(cooled).toMatchObject({ state: 'cooling', failures: 2 });
    const cooling = await store.checkTarget(target, 1000);
    expect(cooling.state).toBe('cooling');
    expect(cooling.retryInMs).toBeGreaterThan(0);
    expect(cooling.retryInMs).toBeLessThanOrEqual(1000);
    await sleep(1200);
    expect((await store.checkTarget(target, 1000)).state).toBe('probe');
    expect((await store.checkTarget(target, 1000)).state).toBe('cooling');
    await store.clearTarget(target);
    expect(await store.checkTarget(target, 1000)).toEqual({ state: 'ready', failures: 0, retryInMs: 0 });
  });

  it('puts a target whose probe fails back into cooldown', async () => {
    const target = `vendor/${randomUUID()}`;
    await store.failTarget(target, 1, 500);
    await sleep(700);
    expect((await store.checkTarget(target, 1000)).state).toBe('probe');
    expect((await store.failTarget(target, 1, 500)).state).toBe('cooling');
    expect((await store.checkTarget(target, 1000)).state).toBe('cooling');
  });

  it('does not extend a cooldown for failures of attempts already under way', async () => {
    const target = `vendor/${randomUUID()}`;
    await store.failTarget(target, 1, 1000);
    await sleep(300);
    const late = await store.failTarget(target, 1, 1000);
    expect(late.state).toBe('cooling');
    // An extended cooldown would say ~1000 ms; the first one's rest is ~700 (a timer may wake a millisecond
    // early, and a loaded machine late: the margin keeps the claim, not the clock's precision).
    expect(late.retryInMs).toBeLessThanOrEqual(800);
  });

  it('resets the failure count of a target on success', async () => {
    const target = `vendor/${randomUUID()}`;
    await store.failTarget(target, 2, 1000);
    await store.clearTarget(target);
    expect((await store.failTarget(target, 2, 1000)).state).toBe('ready');
  });
});
