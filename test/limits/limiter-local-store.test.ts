import { describe, expect, it } from 'vitest';
import type { GatewayError } from '../../src/errors.ts';
import { createLimiter } from '../../src/limits/limiter.ts';
import { getLocalStore } from '../../src/limits/local-store.ts';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import type { LimitStore } from '../../src/limits/store.ts';
import { createLogCapture } from './log-capture.ts';
import { makeKey } from './limiter-keys.ts';

const { log } = createLogCapture();

/** The error a rejected promise carries (a refusal is never thrown synchronously). */
async function getRefusal(value: unknown): Promise<GatewayError> {
  expect(value).toBeInstanceOf(Promise);
  return (value as Promise<unknown>).then(
    () => expect.unreachable('admitted'),
    (error: GatewayError) => error,
  );
}

describe('the limiter on a store in this process', () => {
  it('admits, takes a slot and reserves without a promise, the store counting each at once', () => {
    const store = createMemoryStore();
    const limiter = createLimiter(store, {}, { log, windowMs: 10_000 });
    const admission = limiter.admit(makeKey('local', { rpm: 5, tpm: 100, concurrency: 1 }));
    expect(admission).not.toBeInstanceOf(Promise);
    const admitted = admission as Exclude<typeof admission, Promise<unknown>>;
    expect(admitted.headers).toMatchObject({ 'x-ratelimit-remaining-requests': '4', 'x-ratelimit-remaining-tokens': '100' });
    expect(admitted.acquire()).toBeUndefined();
    expect(admitted.reserve({ tokens: 30, costUsd: 0 })).toBeUndefined();
    const state = getLocalStore(store)!.admit({ id: 'local', rpm: 5, tpm: 100, concurrency: 1, windowMs: 10_000 });
    expect(state).toMatchObject({ verdict: 'concurrency', requests: { remaining: 4 }, tokens: { remaining: 70 }, concurrency: { inUse: 1 } });
    admitted.release();
    admitted.charge(10);
    const after = getLocalStore(store)!.admit({ id: 'local', tpm: 100, concurrency: 1, windowMs: 10_000 });
    expect(after).toMatchObject({ verdict: 'ok', tokens: { remaining: 90 }, concurrency: { inUse: 0 } });
  });

  it('refuses with a rejected promise: a spent request window, a full concurrency limit, a spent token window', async () => {
    const limiter = createLimiter(createMemoryStore(), {}, { log, windowMs: 10_000 });
    const requestKey = makeKey('requests', { rpm: 2 });
    expect([limiter.admit(requestKey), limiter.admit(requestKey)]).not.toContainEqual(expect.any(Promise));
    expect((await getRefusal(limiter.admit(requestKey))).message).toMatch(/^Rate limit reached for requests: limit 2 per 10 s\./);

    const slotKey = makeKey('slots', { concurrency: 1 });
    const [a, b] = [await limiter.admit(slotKey), await limiter.admit(slotKey)];
    expect(a.acquire()).toBeUndefined();
    const full = await getRefusal(b.acquire());
    expect([full.status, full.message]).toEqual([429, 'Too many concurrent requests: limit 1. Try again when one of them has finished.']);

    const tokenKey = makeKey('tokens', { tpm: 10 });
    const [c, d] = [await limiter.admit(tokenKey), await limiter.admit(tokenKey)];
    expect(c.reserve({ tokens: 10, costUsd: 0 })).toBeUndefined();
    const spent = await getRefusal(d.reserve({ tokens: 1, costUsd: 0 }));
    expect(spent.message).toMatch(/^Rate limit reached for tokens: limit 10 per 10 s\./);
    expect(spent.headers).toMatchObject({ 'x-ratelimit-remaining-tokens': '0' });
  });

  it('frees a slot once however often its request is released (the store counts slots, it names none)', async () => {
    const limiter = createLimiter(createMemoryStore(), {}, { log });
    const key = makeKey('released-twice', { concurrency: 2 });
    const [a, b, c, d] = [await limiter.admit(key), await limiter.admit(key), await limiter.admit(key), await limiter.admit(key)];
    expect([a.acquire(), b.acquire()]).toEqual([undefined, undefined]);
    a.release();
    a.release();
    expect(c.acquire()).toBeUndefined();
    expect((await getRefusal(d.acquire())).status).toBe(429);
    // Released before it took one: it takes none, and frees none.
    a.acquire();
    b.release();
    expect(d.acquire()).toBeUndefined();
  });

  it('goes through the methods of a wrapper made by spreading the store, with promises', async () => {
    const inner = createMemoryStore();
    const asked: string[] = [];
    const store: LimitStore = {
      ...inner,
      async admit(request) {
        asked.push(request.slot ? 'slot' : 'admit');
        return inner.admit(request);
      },
    };
    expect(getLocalStore(store)).toBeUndefined();
    const pending = createLimiter(store, {}, { log }).admit(makeKey('wrapped', { concurrency: 2 }));
    expect(pending).toBeInstanceOf(Promise);
    await (await pending).acquire();
    expect(asked).toEqual(['admit', 'slot']);
  });
});
