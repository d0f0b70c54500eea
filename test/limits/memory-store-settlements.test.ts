import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import type { ReserveRequest, SettleRequest } from '../../src/limits/store.ts';

const windowMs = 1000;

/** A memory store on a clock the test moves, with reserve and settle of one key's tokens (limit 1000). */
function createClockedTokens() {
  const clock = { time: 5_000 };
  const store = createMemoryStore({ now: () => clock.time });
  const reserve = (entry: string, tokens: number, extra: Partial<ReserveRequest> = {}) =>
    store.reserve({ id: 'k', entry, tpm: 1000, tokens, windowMs, costNano: 0, ...extra });
  const settle = (entry: string, reservedTokens: number, tokens: number, extra: Partial<SettleRequest> = {}) =>
    store.settle({ id: 'k', entry, tpm: 1000, reservedTokens, tokens, windowMs, reservedNano: 0, costNano: 0, ...extra });
  const tokensState = async () => (await store.admit({ id: 'k', tpm: 1000, windowMs })).tokens;
  return { clock, store, reserve, settle, tokensState };
}

describe('settling reservations in the memory store', () => {
  it('replaces a reservation still in its window by the real count, keeping its end', async () => {
    const { clock, reserve, settle, tokensState } = createClockedTokens();
    await reserve('a', 300);
    clock.time += 400;
    await settle('a', 300, 120);
    expect(await tokensState()).toEqual({ allowed: true, limit: 1000, remaining: 880, resetSeconds: 0.6 });
    clock.time += 600;
    expect(await tokensState()).toEqual({ allowed: true, limit: 1000, remaining: 1000, resetSeconds: 0 });
  });

  it('replaces only its own reservation when others end in the same millisecond', async () => {
    const { reserve, settle, tokensState } = createClockedTokens();
    await reserve('a', 300);
    await reserve('b', 200);
    await settle('b', 200, 50);
    expect((await tokensState())!.remaining).toBe(650);
    await settle('a', 300, 0);
    expect((await tokensState())!.remaining).toBe(950);
  });

  it('charges only the excess over a reservation that has left its window, counted from the settlement', async () => {
    const { clock, reserve, settle, tokensState } = createClockedTokens();
    await reserve('a', 100);
    clock.time += windowMs;
    await settle('a', 100, 180);
    expect(await tokensState()).toEqual({ allowed: true, limit: 1000, remaining: 920, resetSeconds: 1 });
    await settle('gone', 100, 100);
    expect((await tokensState())!.remaining).toBe(920);
  });

  it('adds nothing when a reservation that has left its window is settled at exactly its count (no empty entry)', async () => {
    const { clock, reserve, settle, tokensState } = createClockedTokens();
    await reserve('a', 100);
    clock.time += windowMs;
    await settle('a', 100, 100);
    expect(await tokensState()).toEqual({ allowed: true, limit: 1000, remaining: 1000, resetSeconds: 0 });
  });

  it('settles a reservation once: a second settlement of the same entry charges only an excess, from now', async () => {
    const { clock, reserve, settle, tokensState } = createClockedTokens();
    await reserve('a', 100);
    await settle('a', 100, 40);
    clock.time += 10;
    await settle('a', 100, 40);
    await settle('a', 30, 40);
    expect(await tokensState()).toEqual({ allowed: true, limit: 1000, remaining: 950, resetSeconds: 1 });
  });

  it('rounds the settled count as it rounds a reservation', async () => {
    const { reserve, settle, tokensState } = createClockedTokens();
    await reserve('a', 10.4);
    await settle('a', 10, 20.6);
    expect((await tokensState())!.remaining).toBe(979);
  });

  it('keeps the reservations still in their window when piled-up unsettled ones are swept', async () => {
    const { clock, store } = createClockedTokens();
    const big = { tpm: 10_000 };
    const reserve = (entry: string) => store.reserve({ id: 'k', entry, tpm: 10_000, tokens: 1, windowMs, costNano: 0 });
    const settle = (entry: string, tokens: number) =>
      store.settle({ id: 'k', entry, tpm: 10_000, reservedTokens: 1, tokens, windowMs, reservedNano: 0, costNano: 0 });
    const used = async () => 10_000 - (await store.admit({ id: 'k', ...big, windowMs })).tokens!.remaining;
    // 1,100 reservations never settled (their requests never ended), in runs that then leave the window.
    for (let i = 0; i < 1100; i++) {
      await reserve(`old-${i}`);
      clock.time += 1;
    }
    clock.time += windowMs;
    for (let i = 0; i < 1100; i++) await reserve(`new-${i}`);
    expect(await used()).toBe(1100);
    await settle('new-0', 0);
    await settle('new-1099', 0);
    expect(await used()).toBe(1098);
    // An old one settles as one that has left its window: the excess over its reservation only.
    await settle('old-0', 3);
    expect(await used()).toBe(1100);
  });

  it('settles a budget without a token limit and leaves the token window alone', async () => {
    const { reserve, settle, tokensState, store } = createClockedTokens();
    const budget = { period: 'd2026-11-24', limitNano: 1000, ttlMs: 60_000 };
    await reserve('a', 0, { tpm: 0, budget, costNano: 400 });
    await settle('a', 0, 500, { tpm: 0, budget, reservedNano: 400, costNano: 100 });
    expect((await tokensState())!.remaining).toBe(1000);
    expect((await store.reserve({ id: 'k', entry: 'b', tpm: 0, tokens: 0, windowMs, budget, costNano: 0 })).spentNano).toBe(100);
  });
});
