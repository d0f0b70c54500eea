import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/limits/limiter.ts';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import { StoreUnavailableError, type LimitStore, type ReserveRequest, type SettleRequest } from '../../src/limits/store.ts';
import { createLogCapture } from './log-capture.ts';
import { makeKey } from './limiter-keys.ts';

/** A memory store that records what the limiter asks of it; `failing` makes reserve or settle fail. */
function createRecordingStore(failing: { reserve?: boolean; settle?: boolean } = {}, failOpen = true) {
  const inner = createMemoryStore();
  const calls = { slots: [] as string[], reserves: [] as ReserveRequest[], settles: [] as SettleRequest[], charges: [] as number[] };
  const store: LimitStore = {
    ...inner,
    failOpen,
    async admit(request) {
      if (request.slot) calls.slots.push(request.slot);
      return inner.admit(request);
    },
    async reserve(request) {
      calls.reserves.push(request);
      if (failing.reserve) throw new StoreUnavailableError(new Error('down'));
      return inner.reserve(request);
    },
    async settle(request) {
      calls.settles.push(request);
      if (failing.settle) throw new StoreUnavailableError(new Error('settle down'));
      return inner.settle(request);
    },
    async charge(id, tokens, windowMs) {
      calls.charges.push(tokens);
      return inner.charge(id, tokens, windowMs);
    },
  };
  return { store, calls };
}

const budget = { usd: 10, period: 'month' as const };

describe('what an admitted request asks of the store', () => {
  it('a key with a budget but no token limit reserves and settles no tokens, whatever the bound', async () => {
    const { store, calls } = createRecordingStore();
    const limiter = createLimiter(store, {}, { log: createLogCapture().log });
    const key = { ...makeKey('budget-tokens', {}), budget };
    for (const tokens of [500, -5]) {
      const admission = await limiter.admit(key);
      await admission.reserve({ tokens, costUsd: 0.01 });
      admission.charge(40, 0.01);
    }
    await sleep(0);
    expect(calls.reserves.map((request) => request.tokens)).toEqual([0, 0]);
    expect(calls.settles.map((request) => request.reservedTokens)).toEqual([0, 0]);
    expect(calls.charges).toEqual([]);
  });

  it('a key with a token limit never reserves a negative count, and settles a negative or NaN count as 0', async () => {
    const { store, calls } = createRecordingStore();
    const limiter = createLimiter(store, {}, { log: createLogCapture().log });
    const key = makeKey('token-bounds', { tpm: 1000 });
    for (const used of [-7, Number.NaN]) {
      const admission = await limiter.admit(key);
      await admission.reserve({ tokens: -3, costUsd: 0 });
      admission.charge(used);
    }
    await sleep(0);
    expect(calls.reserves.map((request) => request.tokens)).toEqual([0, 0]);
    expect(calls.settles.map((request) => request.tokens)).toEqual([0, 0]);
  });

  it('a budget-only key charged without a reservation charges no tokens', async () => {
    const { store, calls } = createRecordingStore();
    const limiter = createLimiter(store, {}, { log: createLogCapture().log });
    const admission = await limiter.admit({ ...makeKey('budget-no-reserve', {}), budget });
    admission.charge(300, 0.5);
    await sleep(0);
    expect(calls.charges).toEqual([]);
    expect(calls.settles).toEqual([]);
  });

  it('takes one concurrency slot however often acquire is called', async () => {
    const { store, calls } = createRecordingStore();
    const limiter = createLimiter(store, {}, { log: createLogCapture().log });
    const admission = await limiter.admit(makeKey('one-slot', { concurrency: 3 }));
    await admission.acquire();
    await admission.acquire();
    expect(calls.slots).toHaveLength(1);
    admission.release();
  });

  it('a fail-closed reservation the store cannot take is a 503, and a later charge settles nothing', async () => {
    const { store, calls } = createRecordingStore({ reserve: true }, false);
    const limiter = createLimiter(store, {}, { log: createLogCapture().log });
    const admission = await limiter.admit(makeKey('reserve-down', { tpm: 1000 }));
    await expect(Promise.resolve(admission.reserve({ tokens: 10, costUsd: 0 }))).rejects.toMatchObject({ status: 503, code: 'rate_limit_unavailable' });
    admission.charge(10);
    await sleep(0);
    expect(calls.settles).toEqual([]);
  });

  it('logs a settlement the store failed at debug level, with its error', async () => {
    const { store } = createRecordingStore({ settle: true });
    const capture = createLogCapture();
    const limiter = createLimiter(store, {}, { log: capture.log });
    const admission = await limiter.admit(makeKey('settle-down', { tpm: 1000 }));
    await admission.reserve({ tokens: 10, costUsd: 0 });
    admission.charge(20);
    await sleep(10);
    expect(capture.lines).toEqual([expect.objectContaining({ level: 20, msg: 'token charge failed', err: expect.objectContaining({ message: expect.stringContaining('settle down') }) })]);
  });
});
