/**
 * The limiter on a store in this process uses only the store's immediate operations: no request calls the
 * store's promise methods (each is a promise and a microtask at thousands of requests a second), refused
 * or not, and a key with only a budget asks nothing before its body.
 */
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/limits/limiter.ts';
import { getLocalStore } from '../../src/limits/local-store.ts';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import type { LimitStore } from '../../src/limits/store.ts';
import { createLogCapture } from './log-capture.ts';
import { makeKey } from './limiter-keys.ts';

const { log } = createLogCapture();
const METHODS = ['admit', 'reserve', 'settle', 'charge', 'release'] as const;
const LOCAL_METHODS = ['admit', 'takeSlot', 'freeSlot', 'reserve', 'settle', 'charge'] as const;

/** A memory store whose promise methods record each call (replaced on the store object itself, so it stays local). */
function createWatchedStore() {
  const store = createMemoryStore();
  const promised: string[] = [];
  const target = store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of METHODS) {
    const method = target[name];
    target[name] = (...args) => (promised.push(name), method(...args));
  }
  const local = getLocalStore(store)!;
  const immediate: string[] = [];
  const calls = local as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of LOCAL_METHODS) {
    const op = calls[name];
    calls[name] = (...args) => (immediate.push(name), op(...args));
  }
  return { store: store as LimitStore, promised, immediate };
}

describe('the limiter on a store in this process', () => {
  it('never calls the promise methods: admit, slot, reservation, settlement, charge and release, refused or not', async () => {
    const { store, promised, immediate } = createWatchedStore();
    const limiter = createLimiter(store, {}, { log, windowMs: 10_000 });
    const key = makeKey('watched', { tpm: 100, concurrency: 1 });
    const [first, second] = [await limiter.admit(key), await limiter.admit(key)];
    await first.acquire();
    await first.reserve({ tokens: 100, costUsd: 0 });
    await expect(second.acquire()).rejects.toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    await expect(second.reserve({ tokens: 1, costUsd: 0 })).rejects.toMatchObject({ status: 429 });
    first.release();
    first.charge(40);
    // Without a reservation (none was made), the tokens are charged from now.
    const third = await limiter.admit(makeKey('charged', { tpm: 100 }));
    third.charge(30);
    expect(promised).toEqual([]);
    expect(immediate).toEqual(['admit', 'admit', 'takeSlot', 'reserve', 'takeSlot', 'reserve', 'freeSlot', 'settle', 'admit', 'charge']);
    const state = getLocalStore(store)!.admit({ id: 'watched', tpm: 100, concurrency: 1, windowMs: 10_000 });
    expect(state).toMatchObject({ verdict: 'ok', tokens: { remaining: 60 }, concurrency: { inUse: 0 } });
  });

  it('asks nothing before the body of a key with only a budget', async () => {
    const { store, promised, immediate } = createWatchedStore();
    const limiter = createLimiter(store, {}, { log, windowMs: 10_000 });
    const admission = await limiter.admit({ ...makeKey('budget-only', {}), budget: { usd: 5, period: 'day' } });
    expect(admission.headers).toEqual({});
    expect([promised, immediate]).toEqual([[], []]);
  });
});
