/**
 * An admission copies its headers onto the response's as Object.assign would: the same names, values and
 * order, by named stores while they are the rate headers it was admitted with, and after a reservation
 * changed them (a budget's header, a refused reservation's token headers) too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUDGET_HEADER, createLimiter } from '../../src/limits/limiter.ts';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import { assignRateHeaders, getRateHeaders } from '../../src/limits/rate-headers.ts';
import type { AdmitResult } from '../../src/limits/store.ts';
import { createLogCapture } from './log-capture.ts';
import { makeKey } from './limiter-keys.ts';

const { log } = createLogCapture();

const count = fc.oneof(fc.nat(), fc.constantFrom(1_000_000_000, 1_000_000_000_000));
const window = fc.record({ allowed: fc.boolean(), limit: count, remaining: count, resetSeconds: fc.double({ min: 0, max: 1e5, noNaN: true }) });
const result = fc.record({ verdict: fc.constantFrom('ok', 'rpm', 'tpm'), requests: window, tokens: window }, { requiredKeys: ['verdict'] }) as fc.Arbitrary<AdmitResult>;
const RATE_NAMES = Object.keys(getRateHeaders({ verdict: 'ok', requests: { allowed: true, limit: 1, remaining: 1, resetSeconds: 0 }, tokens: { allowed: true, limit: 1, remaining: 1, resetSeconds: 0 } }));
/** Headers a response may have before the admission's are copied: its own, and rate headers already set. */
const before = fc.dictionary(fc.oneof(fc.constantFrom('x-request-id', 'connection', ...RATE_NAMES), fc.string()), fc.string(), { maxKeys: 5 });

describe('copying the rate headers of an admission', () => {
  it('gives the target the entries, in the order, that Object.assign gives it', () => {
    fc.assert(
      fc.property(result, before, (admit, target) => {
        const headers = getRateHeaders(admit);
        const copied = { ...target };
        assignRateHeaders(copied, headers);
        expect(Object.entries(copied)).toEqual(Object.entries(Object.assign({ ...target }, headers)));
      }),
      { numRuns: 500 },
    );
  });

  it('copies what a reservation added as well: the budget header, the token headers of a refusal', async () => {
    const limiter = createLimiter(createMemoryStore(), {}, { log, windowMs: 10_000 });
    const budgeted = await limiter.admit({ ...makeKey('budgeted', { rpm: 5 }), budget: { usd: 1, period: 'day' } });
    await budgeted.reserve({ tokens: 10, costUsd: 0.25 });
    const target = { 'x-request-id': 'r1' };
    budgeted.copyHeaders(target);
    expect(Object.keys(target)).toEqual(['x-request-id', 'x-ratelimit-limit-requests', 'x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests', BUDGET_HEADER]);
    expect(target).toMatchObject({ [BUDGET_HEADER]: '0.750000' });

    const key = makeKey('tokens', { tpm: 10 });
    const [first, second] = [await limiter.admit(key), await limiter.admit(key)];
    await first.reserve({ tokens: 10, costUsd: 0 });
    await expect(second.reserve({ tokens: 1, costUsd: 0 })).rejects.toMatchObject({ status: 429 });
    const refused: Record<string, string> = {};
    second.copyHeaders(refused);
    expect(refused).toEqual(second.headers);
    expect(refused['x-ratelimit-remaining-tokens']).toBe('0');
  });

  it('copies nothing for a key without limits', async () => {
    const target = { 'x-request-id': 'r2' };
    (await createLimiter(createMemoryStore(), {}, { log }).admit(makeKey('free', {}))).copyHeaders(target);
    expect(target).toEqual({ 'x-request-id': 'r2' });
  });
});
