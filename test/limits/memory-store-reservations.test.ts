import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/limits/memory-store.ts';

const windowMs = 60_000;
const budget = { period: 'm2026-11', limitNano: 5_000_000_000, ttlMs: 86_400_000 };

describe('token reservations in the memory store', () => {
  it('a reservation of zero tokens leaves the token window empty (full limit, no reset time)', async () => {
    const store = createMemoryStore({ now: () => 1_000_000 });
    const result = await store.reserve({ id: 'zero', entry: 'e', tpm: 100, tokens: 0, windowMs, costNano: 0 });
    expect(result).toEqual({ verdict: 'ok', tokens: { allowed: true, limit: 100, remaining: 100, resetSeconds: 0 } });
    expect((await store.admit({ id: 'zero', tpm: 100, windowMs })).tokens).toEqual({ allowed: true, limit: 100, remaining: 100, resetSeconds: 0 });
  });

  it('a reservation and a settlement without a token limit count no tokens against a later token limit', async () => {
    const store = createMemoryStore({ now: () => 2_000_000 });
    expect(await store.reserve({ id: 'budget-only', entry: 'e', tpm: 0, tokens: 40, windowMs, budget, costNano: 1000 })).toEqual({ verdict: 'ok', spentNano: 1000 });
    await store.settle({ id: 'budget-only', entry: 'e', tpm: 0, reservedTokens: 40, tokens: 70, windowMs, budget, reservedNano: 1000, costNano: 900 });
    expect((await store.admit({ id: 'budget-only', tpm: 100, windowMs })).tokens).toEqual({ allowed: true, limit: 100, remaining: 100, resetSeconds: 0 });
    expect((await store.reserve({ id: 'budget-only', entry: 'f', tpm: 0, tokens: 0, windowMs, budget, costNano: 0 })).spentNano).toBe(900);
  });
});
