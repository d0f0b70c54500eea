import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/limits/limiter.ts';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import { StoreUnavailableError, type AdmitRequest, type LimitStore } from '../../src/limits/store.ts';
import { createLogCapture } from './log-capture.ts';
import { makeKey } from './limiter-keys.ts';

const { log } = createLogCapture();

/** A memory store that records every admit and release, and fails the slot takes while `down` (fail-open). */
function createRecordingStore() {
  const inner = createMemoryStore();
  const calls = { admits: [] as AdmitRequest[], releases: [] as string[], down: false };
  const store: LimitStore = {
    ...inner,
    failOpen: true,
    async admit(request) {
      calls.admits.push(request);
      if (calls.down && request.slot) throw new StoreUnavailableError(new Error('down'));
      return inner.admit(request);
    },
    async release(id, slot) {
      calls.releases.push(slot);
      return inner.release(id, slot);
    },
  };
  return { store, calls };
}

describe('what the limiter asks its store', () => {
  it('admits a key without limits at once, without a promise and without asking the store', () => {
    const { store, calls } = createRecordingStore();
    const limiter = createLimiter(store, {}, { log });
    for (const limits of [{}, { rpm: 0, tpm: 0, concurrency: 0 }]) {
      const admission = limiter.admit(makeKey('unlimited', limits));
      expect(admission).not.toBeInstanceOf(Promise);
    }
    expect(calls.admits).toEqual([]);
  });

  it('asks nothing before the body for a key that only has a budget', async () => {
    const { store, calls } = createRecordingStore();
    const limiter = createLimiter(store, {}, { log });
    const key = { ...makeKey('budget-only', {}), budget: { usd: 5, period: 'month' as const } };
    const admission = await limiter.admit(key);
    expect(admission.headers).toEqual({});
    expect(calls.admits).toEqual([]);
  });

  it('holds no slot, and releases none, when the store is unreachable as the slot is taken (fail-open)', async () => {
    const { store, calls } = createRecordingStore();
    const limiter = createLimiter(store, {}, { log });
    const admission = await limiter.admit(makeKey('slot-down', { concurrency: 1 }));
    calls.down = true;
    await expect(Promise.resolve(admission.acquire())).resolves.toBeUndefined();
    admission.release();
    expect(calls.admits.filter((request) => request.slot)).toHaveLength(1);
    expect(calls.releases).toEqual([]);
  });
});
