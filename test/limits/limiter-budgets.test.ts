import { describe, expect, it } from 'vitest';
import type { KeyEntry } from '../../src/config/types.ts';
import { GatewayError } from '../../src/errors.ts';
import { BUDGET_HEADER, createLimiter } from '../../src/limits/limiter.ts';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import type { LimitStore, SettleRequest } from '../../src/limits/store.ts';
import { createLogCapture } from './log-capture.ts';
import { makeKey } from './limiter-keys.ts';

const { log } = createLogCapture();

function makeBudgetKey(name: string, budget: KeyEntry['budget'], limits: KeyEntry['limits'] = {}): KeyEntry {
  return { ...makeKey(name, limits), budget };
}

/** Admits, reserves the bound and returns the admission (or the error the reservation threw). */
async function reserve(limiter: ReturnType<typeof createLimiter>, key: KeyEntry, tokens: number, costUsd: number) {
  const admission = await limiter.admit(key);
  await admission.reserve({ tokens, costUsd });
  return admission;
}

describe('budget and token reservations of the limiter', () => {
  it('reserves the bound, says what is left, and settles the real cost', async () => {
    const limiter = createLimiter(createMemoryStore(), {}, { log });
    const key = makeBudgetKey('spender', { usd: 1, period: 'day' });
    const first = await reserve(limiter, key, 0, 0.4);
    expect(first.countsSpend).toBe(true);
    expect(first.countsTokens).toBe(true);
    expect(first.headers[BUDGET_HEADER]).toBe('0.600000');
    first.charge(10, 0.1);
    const second = await reserve(limiter, key, 0, 0.2);
    expect(second.headers[BUDGET_HEADER]).toBe('0.700000');
  });

  it('refuses a request the budget cannot cover with 429 budget_exceeded, Retry-After until the period ends and the header', async () => {
    const limiter = createLimiter(createMemoryStore(), {}, { log });
    const key = makeBudgetKey('poor', { usd: 1, period: 'month' });
    await reserve(limiter, key, 0, 0.75);
    const error = await reserve(limiter, key, 0, 0.5).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 429, code: 'budget_exceeded', headers: { [BUDGET_HEADER]: '0.250000' } });
    expect((error as GatewayError).message).toMatch(/\$0\.250000 of its \$1\.000000 budget left/);
    expect((error as GatewayError).retryAfter).toBeGreaterThan(0);
    expect((error as GatewayError).retryAfter).toBeLessThanOrEqual(31 * 86_400);
  });

  it('caps what one request reserves at reserve_usd', async () => {
    const limiter = createLimiter(createMemoryStore(), {}, { log });
    const key = makeBudgetKey('capped', { usd: 1, period: 'day', reserveUsd: 0.01 });
    expect((await reserve(limiter, key, 0, 50)).headers[BUDGET_HEADER]).toBe('0.990000');
  });

  it('refuses a token reservation in a spent window with rate_limit_exceeded and the token headers', async () => {
    const limiter = createLimiter(createMemoryStore(), {}, { log, windowMs: 10_000 });
    const key = makeKey('tokens', { tpm: 100 });
    const first = await reserve(limiter, key, 150, 0);
    expect(first.headers['x-ratelimit-remaining-tokens']).toBe('100');
    const error = await reserve(limiter, key, 1, 0).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', headers: { 'x-ratelimit-limit-tokens': '100', 'x-ratelimit-remaining-tokens': '0' } });
    expect((error as GatewayError).message).toContain('limit 100 per 10 s');
  });

  it('reserves once, and a key with neither a token limit nor a budget reserves nothing', async () => {
    const store = createMemoryStore();
    const reserves: unknown[] = [];
    const limiter = createLimiter({ ...store, reserve: (request) => (reserves.push(request), store.reserve(request)) }, {}, { log });
    const admission = await reserve(limiter, makeKey('twice', { tpm: 100 }), 10, 0);
    expect(admission.reserve({ tokens: 10, costUsd: 0 })).toBeUndefined();
    const unlimited = await limiter.admit(makeKey('rpm-only', { rpm: 5 }));
    expect(unlimited.reserve({ tokens: 10, costUsd: 1 })).toBeUndefined();
    expect(unlimited.countsSpend).toBe(false);
    expect(reserves).toHaveLength(1);
  });

  it('a request that ends while its reservation is being taken settles it once taken, with its real usage', async () => {
    const store = createMemoryStore();
    const settles: SettleRequest[] = [];
    const recording: LimitStore = { ...store, settle: (request) => (settles.push(request), store.settle(request)) };
    const limiter = createLimiter(recording, {}, { log });
    const admission = await limiter.admit(makeBudgetKey('quick', { usd: 1, period: 'day' }, { tpm: 100 }));
    const taking = admission.reserve({ tokens: 40, costUsd: 0.5 });
    admission.charge(12, 0.25);
    admission.charge(99, 0.9);
    expect(settles).toHaveLength(0);
    await taking;
    expect(settles).toEqual([expect.objectContaining({ reservedTokens: 40, tokens: 12, reservedNano: 5e8, costNano: 2.5e8 })]);
  });

  it('fail-open admits a reservation unchecked, and still charges the tokens afterwards', async () => {
    const store = createMemoryStore();
    const charges: number[] = [];
    const down: LimitStore = {
      ...store,
      failOpen: true,
      reserve: async () => {
        throw new (await import('../../src/limits/store.ts')).StoreUnavailableError(new Error('down'));
      },
      charge: async (_id, tokens) => void charges.push(tokens),
    };
    const admission = await reserve(createLimiter(down, {}, { log }), makeBudgetKey('open', { usd: 1, period: 'day' }, { tpm: 10 }), 5, 0.1);
    expect(admission.headers[BUDGET_HEADER]).toBeUndefined();
    admission.charge(7, 0.01);
    expect(charges).toEqual([7]);
  });
});
