import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import { createRedisStore } from '../../src/limits/redis-store.ts';
import type { BudgetRequest, LimitStore, ReserveRequest, SettleRequest } from '../../src/limits/store.ts';
import { createLogCapture } from './log-capture.ts';
import { startTestRedis, type TestRedis } from './redis-server.ts';

/** Token reservations in sliding windows, and budget reservations, on both stores. */
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

// Long enough that a loaded machine's late timers and slow commands stay well inside each half window.
const WINDOW = 2000;
const BUDGET: BudgetRequest = { period: 'd2026-11-24', limitNano: 1000, ttlMs: 60_000 };

describe.each(factories)('%s', (_name, createStore) => {
  let store: LimitStore;
  let id: string;
  let entryNumber = 0;
  const reserve = (extra: Partial<ReserveRequest>): Promise<ReturnType<LimitStore['reserve']> extends Promise<infer R> ? R : never> =>
    store.reserve({ id, entry: `e${++entryNumber}`, tpm: 100, tokens: 0, windowMs: WINDOW, costNano: 0, ...extra });
  const settle = (extra: Partial<SettleRequest> & { entry: string }) =>
    store.settle({ id, tpm: 100, reservedTokens: 0, tokens: 0, windowMs: WINDOW, reservedNano: 0, costNano: 0, ...extra });

  beforeAll(async () => {
    store = await createStore();
    stores.push(store);
  });
  const freshKey = () => {
    id = `key-${randomUUID()}`;
  };

  it('reserves while the window is under the limit: the last one admitted overshoots by its own size at most', async () => {
    freshKey();
    const first = await reserve({ tokens: 60 });
    expect(first.verdict).toBe('ok');
    expect(first.tokens).toMatchObject({ allowed: true, limit: 100, remaining: 40 });
    const second = await reserve({ tokens: 60 });
    expect(second.verdict).toBe('ok');
    expect(second.tokens).toMatchObject({ allowed: true, remaining: 0 });
    const third = await reserve({ tokens: 1 });
    expect(third.verdict).toBe('tpm');
    expect(third.tokens).toMatchObject({ allowed: false, remaining: 0 });
    expect(third.tokens!.resetSeconds).toBeGreaterThan(0);
    expect(third.tokens!.resetSeconds).toBeLessThanOrEqual(WINDOW / 1000);
    // The refused reservation took nothing; the admit check before the body sees the same window.
    expect((await store.admit({ id, tpm: 100, windowMs: WINDOW })).tokens).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('settling replaces the reservation by the real count', async () => {
    freshKey();
    await reserve({ entry: 'big', tokens: 90 });
    await settle({ entry: 'big', reservedTokens: 90, tokens: 15 });
    expect((await reserve({ tokens: 5 })).tokens).toMatchObject({ remaining: 80 });
    await settle({ entry: 'big', reservedTokens: 90, tokens: 15 });
    expect((await reserve({ tokens: 0 })).tokens).toMatchObject({ remaining: 80 });
  });

  it('slides: tokens leave the window one entry at a time, never all at once at an edge', async () => {
    freshKey();
    await store.charge(id, 50, WINDOW);
    await sleep(WINDOW / 2);
    await store.charge(id, 50, WINDOW);
    expect((await reserve({ tokens: 1 })).verdict).toBe('tpm');
    await sleep(WINDOW / 2 + 200);
    // The first 50 have left; the second 50 still count (a fixed window would be back to 100 here).
    const later = await reserve({ tokens: 10 });
    expect(later.verdict).toBe('ok');
    expect(later.tokens).toMatchObject({ remaining: 40 });
    await sleep(WINDOW / 2);
    expect((await reserve({ tokens: 0 })).tokens).toMatchObject({ remaining: 90 });
  });

  it('a reservation settled after its window has left charges only the excess, from now', async () => {
    freshKey();
    await reserve({ entry: 'slow', tokens: 30 });
    await sleep(WINDOW + 200);
    await settle({ entry: 'slow', reservedTokens: 30, tokens: 70 });
    expect((await reserve({ tokens: 0 })).tokens).toMatchObject({ remaining: 60 });
    await settle({ entry: 'unknown', reservedTokens: 30, tokens: 20 });
    expect((await reserve({ tokens: 0 })).tokens).toMatchObject({ remaining: 60 });
  });

  it('reserves a budget only while spent + this request fits, and settles it to the real cost', async () => {
    freshKey();
    const first = await reserve({ tpm: 0, budget: BUDGET, costNano: 600 });
    expect(first).toEqual({ verdict: 'ok', spentNano: 600 });
    const over = await reserve({ tpm: 0, budget: BUDGET, costNano: 500 });
    expect(over).toEqual({ verdict: 'budget', spentNano: 600 });
    await settle({ entry: 'e-any', tpm: 0, budget: BUDGET, reservedNano: 600, costNano: 100 });
    expect(await reserve({ tpm: 0, budget: BUDGET, costNano: 500 })).toEqual({ verdict: 'ok', spentNano: 600 });
    expect(await reserve({ tpm: 0, budget: BUDGET, costNano: 400 })).toEqual({ verdict: 'ok', spentNano: 1000 });
    // Spent in full: even a request that costs nothing is refused until the period ends.
    expect(await reserve({ tpm: 0, budget: BUDGET, costNano: 0 })).toEqual({ verdict: 'budget', spentNano: 1000 });
    expect(await reserve({ tpm: 0, budget: { ...BUDGET, period: 'd2026-11-25' }, costNano: 0 })).toEqual({ verdict: 'ok', spentNano: 0 });
  });

  it('a budget never goes below zero, and tokens and budget are reserved together or not at all', async () => {
    freshKey();
    await settle({ entry: 'x', tpm: 0, budget: BUDGET, reservedNano: 500, costNano: 0 });
    expect(await reserve({ tpm: 0, budget: BUDGET, costNano: 1000 })).toEqual({ verdict: 'ok', spentNano: 1000 });
    const refused = await reserve({ tokens: 40, budget: BUDGET, costNano: 1 });
    expect(refused.verdict).toBe('budget');
    expect(refused.tokens).toMatchObject({ allowed: true, remaining: 100 });
    await store.charge(id, 100, WINDOW);
    const spentTokens = await reserve({ tokens: 40, budget: { ...BUDGET, period: 'd2026-11-26' }, costNano: 1 });
    expect(spentTokens.verdict).toBe('tpm');
    expect(await reserve({ tpm: 0, budget: { ...BUDGET, period: 'd2026-11-26' }, costNano: 0 })).toEqual({ verdict: 'ok', spentNano: 0 });
  });
});

describe.each(factories)('%s request windows', (_name, createStore) => {
  it('slide: a burst at the end of one window and the start of the next never passes rpm in any window', async () => {
    const store = await createStore();
    stores.push(store);
    const id = `key-${randomUUID()}`;
    const admit = () => store.admit({ id, rpm: 4, windowMs: WINDOW });
    for (let i = 0; i < 2; i++) expect((await admit()).verdict).toBe('ok');
    await sleep(WINDOW / 2);
    for (let i = 0; i < 2; i++) expect((await admit()).verdict).toBe('ok');
    const full = await admit();
    expect(full.verdict).toBe('rpm');
    expect(full.requests!.resetSeconds).toBeLessThanOrEqual(WINDOW / 2000 + 0.01);
    await sleep(WINDOW / 2 + 200);
    // The first two have left, the last two still count: two more, not four.
    expect((await admit()).requests).toMatchObject({ allowed: true, remaining: 1 });
    expect((await admit()).verdict).toBe('ok');
    expect((await admit()).verdict).toBe('rpm');
  });
});
