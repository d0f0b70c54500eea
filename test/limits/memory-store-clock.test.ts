import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import { TARGET_STALE_MS } from '../../src/limits/store.ts';

/** A memory store on a clock the test moves. */
function createClockedStore() {
  const clock = { time: 1_000_000 };
  return { clock, store: createMemoryStore({ now: () => clock.time }) };
}

describe('memory store windows on an exact clock', () => {
  it('a window ends exactly windowMs after its first hit', async () => {
    const { clock, store } = createClockedStore();
    expect((await store.admit({ id: 'k', rpm: 1, windowMs: 1000 })).verdict).toBe('ok');
    clock.time += 999;
    const last = await store.admit({ id: 'k', rpm: 1, windowMs: 1000 });
    expect(last.verdict).toBe('rpm');
    expect(last.requests).toEqual({ allowed: false, limit: 1, remaining: 0, resetSeconds: 0.001 });
    clock.time += 1;
    expect((await store.admit({ id: 'k', rpm: 1, windowMs: 1000 })).requests).toEqual({ allowed: true, limit: 1, remaining: 0, resetSeconds: 1 });
  });

  it('a key whose limit is now unlimited (0) is not held to its old windows', async () => {
    const { store } = createClockedStore();
    await store.admit({ id: 'k', rpm: 1, windowMs: 60_000 });
    await store.charge('k', 500, 60_000);
    const after = await store.admit({ id: 'k', rpm: 0, tpm: 0, windowMs: 60_000 });
    expect(after).toEqual({ verdict: 'ok', requests: undefined, tokens: undefined, concurrency: undefined });
  });

  it('charging nothing (0, negative, NaN) opens no token window', async () => {
    const { store } = createClockedStore();
    for (const amount of [0, -5, Number.NaN]) await store.charge('k', amount, 60_000);
    expect((await store.admit({ id: 'k', tpm: 10, windowMs: 60_000 })).tokens).toEqual({ allowed: true, limit: 10, remaining: 10, resetSeconds: 0 });
  });

  it('a request refused by its request limit leaves the token window allowed', async () => {
    const { store } = createClockedStore();
    await store.admit({ id: 'k', rpm: 1, tpm: 10, windowMs: 60_000 });
    const refused = await store.admit({ id: 'k', rpm: 1, tpm: 10, windowMs: 60_000 });
    expect(refused.verdict).toBe('rpm');
    expect(refused.tokens).toEqual({ allowed: true, limit: 10, remaining: 10, resetSeconds: 0 });
  });

  it('a check without a slot refuses a full concurrency limit but takes no slot', async () => {
    const { store } = createClockedStore();
    expect((await store.admit({ id: 'k', concurrency: 1, windowMs: 60_000 })).concurrency).toEqual({ limit: 1, inUse: 0 });
    expect((await store.admit({ id: 'k', concurrency: 1, windowMs: 60_000, slot: 's' })).concurrency).toEqual({ limit: 1, inUse: 1 });
    expect((await store.admit({ id: 'k', concurrency: 1, windowMs: 60_000 })).verdict).toBe('concurrency');
  });

  it('close forgets every window, slot and cooldown', async () => {
    const { store } = createClockedStore();
    await store.admit({ id: 'k', rpm: 1, concurrency: 1, windowMs: 60_000, slot: 's' });
    await store.charge('k', 50, 60_000);
    await store.failTarget('t', 1, 60_000);
    await store.close();
    expect(await store.admit({ id: 'k', rpm: 1, tpm: 10, concurrency: 1, windowMs: 60_000 })).toEqual({
      verdict: 'ok',
      requests: { allowed: true, limit: 1, remaining: 0, resetSeconds: 60 },
      tokens: { allowed: true, limit: 10, remaining: 10, resetSeconds: 0 },
      concurrency: { limit: 1, inUse: 0 },
    });
    expect(await store.checkTarget('t', 1000)).toEqual({ state: 'ready', failures: 0, retryInMs: 0 });
  });
});

describe('memory store target records on an exact clock', () => {
  it('a probe lease ends exactly leaseMs after it was granted', async () => {
    const { clock, store } = createClockedStore();
    await store.failTarget('t', 1, 100);
    clock.time += 100;
    expect(await store.checkTarget('t', 500)).toEqual({ state: 'probe', failures: 1, retryInMs: 0 });
    clock.time += 499;
    expect(await store.checkTarget('t', 500)).toEqual({ state: 'cooling', failures: 1, retryInMs: 1 });
    clock.time += 1;
    expect((await store.checkTarget('t', 500)).state).toBe('probe');
  });

  it('a failed probe with a lease longer than the new cooldown is probed again when the cooldown ends', async () => {
    const { clock, store } = createClockedStore();
    await store.failTarget('t', 1, 100);
    clock.time += 100;
    expect((await store.checkTarget('t', 10_000)).state).toBe('probe');
    expect(await store.failTarget('t', 1, 100)).toEqual({ state: 'cooling', failures: 2, retryInMs: 100 });
    clock.time += 100;
    expect((await store.checkTarget('t', 10_000)).state).toBe('probe');
  });

  it('a threshold of 0 never cools a target', async () => {
    const { store } = createClockedStore();
    for (let i = 1; i <= 3; i++) expect(await store.failTarget('t', 0, 100)).toEqual({ state: 'ready', failures: i, retryInMs: 0 });
    expect(await store.checkTarget('t', 100)).toEqual({ state: 'ready', failures: 3, retryInMs: 0 });
  });

  it('failures further apart than cooldownMs + TARGET_STALE_MS are not in a row', async () => {
    const { clock, store } = createClockedStore();
    await store.failTarget('t', 3, 1000);
    clock.time += 1000 + TARGET_STALE_MS - 1;
    expect((await store.failTarget('t', 3, 1000)).failures).toBe(2);
    clock.time += 1000 + TARGET_STALE_MS;
    expect((await store.failTarget('t', 3, 1000)).failures).toBe(1);
  });

  it('a probe lease keeps the record alive for TARGET_STALE_MS after the lease', async () => {
    const { clock, store } = createClockedStore();
    await store.failTarget('t', 1, 1000);
    clock.time += 1000;
    expect((await store.checkTarget('t', 5000)).state).toBe('probe');
    // Past the failure's own staleness, within the lease's: the record (1 failure, a cooldown over) is kept.
    clock.time += TARGET_STALE_MS + 1000;
    expect(await store.checkTarget('t', 5000)).toEqual({ state: 'probe', failures: 1, retryInMs: 0 });
  });
});

describe('memory store edges', () => {
  it('releasing a slot of a key it never admitted does nothing', async () => {
    await expect(createMemoryStore().release('never-admitted', 'slot')).resolves.toBeUndefined();
  });

  it('tokens charged up to exactly the limit refuse the next request', async () => {
    const store = createMemoryStore();
    await store.charge('k', 10, 60_000);
    expect((await store.admit({ id: 'k', tpm: 10, windowMs: 60_000 })).verdict).toBe('tpm');
  });
});
