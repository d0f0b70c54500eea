import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.ts';
import { createLimiter } from '../../src/limits/limiter.ts';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import { StoreUnavailableError, type AdmitRequest, type LimitStore } from '../../src/limits/store.ts';
import { createLogCapture } from './log-capture.ts';
import { makeKey, take } from './limiter-keys.ts';

const { log } = createLogCapture();


/** A memory store that records what the limiter asked of it. */
function createRecordingStore(overrides: Partial<LimitStore> = {}) {
  const store = createMemoryStore();
  const calls = { admits: [] as AdmitRequest[], charges: [] as number[], releases: [] as string[] };
  const recording: LimitStore = {
    ...store,
    admit: (request) => (calls.admits.push(request), store.admit(request)),
    charge: (id, tokens, windowMs) => (calls.charges.push(tokens), store.charge(id, tokens, windowMs)),
    release: (id, slot) => (calls.releases.push(slot), store.release(id, slot)),
    ...overrides,
  };
  return { store: recording, calls };
}

describe('an admission', () => {
  it('gives every request its own concurrency slot', async () => {
    const { store, calls } = createRecordingStore();
    const limiter = createLimiter(store, {}, { log });
    const key = makeKey('two-slots', { concurrency: 2 });
    const first = await take(limiter, key);
    const second = await take(limiter, key);
    const slots = calls.admits.flatMap((request) => (request.slot === undefined ? [] : [request.slot]));
    expect(slots).toHaveLength(2);
    expect(slots[0]).not.toBe(slots[1]);
    await expect(limiter.admit(key)).rejects.toMatchObject({ status: 429 });
    first.release();
    second.release();
    expect(calls.releases).toEqual(slots);
  });

  it('asks the store with the key name, its limits and the window', async () => {
    const { store, calls } = createRecordingStore();
    await createLimiter(store, { tpm: 7 }, { log, windowMs: 5_000 }).admit(makeKey('asked', { rpm: 3, concurrency: 2 }));
    expect(calls.admits[0]).toMatchObject({ id: 'asked', rpm: 3, tpm: 7, concurrency: 2, windowMs: 5_000 });
  });

  it('a key with only a token limit or only a concurrency limit is checked by the store', async () => {
    const { store, calls } = createRecordingStore();
    const limiter = createLimiter(store, {}, { log });
    expect((await limiter.admit(makeKey('only-tpm', { tpm: 10 }))).headers['x-ratelimit-limit-tokens']).toBe('10');
    await limiter.admit(makeKey('only-concurrency', { concurrency: 1 }));
    expect(calls.admits.map((a) => a.id)).toEqual(['only-tpm', 'only-concurrency']);
  });

  it('charges positive token counts only, once per request, and only when the key has a token limit', async () => {
    const { store, calls } = createRecordingStore();
    const limiter = createLimiter(store, {}, { log });
    const key = makeKey('counted', { tpm: 100 });
    for (const tokens of [0, Number.NaN, -5]) (await limiter.admit(key)).charge(tokens);
    const counted = await limiter.admit(key);
    expect(counted.countsTokens).toBe(true);
    counted.charge(12);
    counted.charge(30);
    const uncounted = await limiter.admit(makeKey('uncounted', { rpm: 100 }));
    expect(uncounted.countsTokens).toBe(false);
    uncounted.charge(50);
    expect(calls.charges).toEqual([12]);
  });

  it('releases a slot once, and holds none when the key has no concurrency limit', async () => {
    const { store, calls } = createRecordingStore();
    const limiter = createLimiter(store, {}, { log });
    const slotted = await take(limiter, makeKey('slotted', { concurrency: 1 }));
    slotted.release();
    slotted.release();
    (await take(limiter, makeKey('unslotted', { rpm: 5 }))).release();
    expect(calls.releases).toHaveLength(1);
  });

  it('a store that fails to release or charge later is logged, never an unhandled rejection', async () => {
    const fail = async () => {
      throw new StoreUnavailableError(new Error('down'));
    };
    const { lines, log: captured } = createLogCapture();
    const { store } = createRecordingStore({ release: fail, charge: fail });
    const admission = await take(createLimiter(store, {}, { log: captured }), makeKey('flaky', { tpm: 10, concurrency: 1 }));
    admission.release();
    admission.charge(5);
    await sleep(0);
    const debug = lines.filter((line) => line.level === 20) as Array<{ msg: string; err?: { message: string } }>;
    expect(debug.map((line) => [line.msg, line.err?.message])).toEqual([
      ['slot release failed', 'The limit store is unreachable.: down'],
      ['token charge failed', 'The limit store is unreachable.: down'],
    ]);
  });
});

describe('limiters of several processes on one store', () => {
  it('never take the same concurrency slot', async () => {
    const store = createMemoryStore();
    const first = createLimiter(store, {}, { log });
    const second = createLimiter(store, {}, { log });
    const key = makeKey('shared-slots', { concurrency: 2 });
    await take(first, key);
    await take(second, key);
    await expect(first.admit(key)).rejects.toMatchObject({ status: 429 });
  });
});

describe('a key without limits', () => {
  it('is admitted without counting tokens', async () => {
    const { store, calls } = createRecordingStore();
    const admission = await createLimiter(store, {}, { log }).admit(makeKey('unlimited', {}));
    expect(admission.countsTokens).toBe(false);
    admission.charge(10);
    expect(calls.charges).toEqual([]);
  });
});

describe('a store that cannot be reached', () => {
  const down = (failOpen: boolean) => createRecordingStore({ failOpen, admit: async () => { throw new StoreUnavailableError(new Error('ECONNREFUSED')); } });

  it('fail-open admits without headers and without a slot, but still charges tokens', async () => {
    const { store, calls } = down(true);
    const admission = await createLimiter(store, {}, { log }).admit(makeKey('open', { tpm: 10, concurrency: 1 }));
    expect(admission.headers).toEqual({});
    admission.release();
    admission.charge(4);
    expect(calls.releases).toEqual([]);
    expect(calls.charges).toEqual([4]);
  });

  it('fail-open charges no tokens for a key without a token limit', async () => {
    const { store, calls } = down(true);
    const admission = await createLimiter(store, {}, { log }).admit(makeKey('open-rpm', { rpm: 10 }));
    expect(admission.countsTokens).toBe(false);
    admission.charge(4);
    expect(calls.charges).toEqual([]);
  });

  it('fail-closed answers 503 rate_limit_unavailable with Retry-After 1 and the cause', async () => {
    const { store } = down(false);
    const error = await Promise.resolve(createLimiter(store, {}, { log }).admit(makeKey('closed', { rpm: 1 }))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 503, code: 'rate_limit_unavailable', retryAfter: 1, message: 'Rate limits cannot be checked right now; try again shortly.' });
    expect((error as GatewayError).cause).toBeInstanceOf(StoreUnavailableError);
  });

  it('any other store error is thrown as it is, in either mode', async () => {
    const bug = new TypeError('store bug');
    for (const failOpen of [true, false]) {
      const { store } = createRecordingStore({ failOpen, admit: async () => { throw bug; } });
      await expect(createLimiter(store, {}, { log }).admit(makeKey('bug', { rpm: 1 }))).rejects.toBe(bug);
    }
  });
});
