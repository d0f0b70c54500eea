/**
 * Concurrency slots taken through a store behind promises (a wrapper, as a network store is): a full limit
 * refuses the slot with its 429, and a request that ended while its slot was being taken gives it back.
 */
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/limits/limiter.ts';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import type { AdmitRequest, LimitStore } from '../../src/limits/store.ts';
import { createLogCapture } from './log-capture.ts';
import { makeKey } from './limiter-keys.ts';

const { log } = createLogCapture();

/** A memory store seen through promises only; `held` counts the slots it holds for `id`. */
function createWrappedStore() {
  const inner = createMemoryStore();
  const store: LimitStore = { ...inner, admit: (request: AdmitRequest) => inner.admit(request) };
  const held = async (id: string) => (await inner.admit({ id, concurrency: 1000, windowMs: 1000 })).concurrency!.inUse;
  return { store, held };
}

describe('slots through a store behind promises', () => {
  it('refuses a slot over the concurrency limit with its 429 and keeps only the slot taken', async () => {
    const { store, held } = createWrappedStore();
    const limiter = createLimiter(store, {}, { log, windowMs: 10_000 });
    const key = makeKey('async-full', { concurrency: 1 });
    const [a, b] = [await limiter.admit(key), await limiter.admit(key)];
    await a.acquire();
    await expect(b.acquire()).rejects.toMatchObject({
      status: 429,
      code: 'rate_limit_exceeded',
      message: 'Too many concurrent requests: limit 1. Try again when one of them has finished.',
    });
    expect(await held('async-full')).toBe(1);
    a.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await held('async-full')).toBe(0);
  });

  it('gives back a slot taken after its request ended (the client left while it was being taken)', async () => {
    const { store, held } = createWrappedStore();
    const limiter = createLimiter(store, {}, { log, windowMs: 10_000 });
    const admission = await limiter.admit(makeKey('async-left', { concurrency: 2 }));
    const taking = admission.acquire();
    admission.release();
    await taking;
    await new Promise((resolve) => setImmediate(resolve));
    expect(await held('async-left')).toBe(0);
  });
});
