/**
 * The memory store's immediate operations (the limiter's in this process) name no slot and no reservation:
 * slots are counted and a reservation is settled by the handle its reservation answered. Any sequence of
 * them counts exactly as the same sequence through the promise API, which names each slot and
 * reservation by a string (the store's contract, shared with the Redis store).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getLocalStore, type LocalReservation } from '../../src/limits/local-store.ts';
import { createMemoryStore } from '../../src/limits/memory-store.ts';

const windowMs = 1000;
const LIMITS = { rpm: 40, tpm: 3000, concurrency: 4 };

type Op =
  | { kind: 'admit'; key: number }
  | { kind: 'take'; key: number }
  | { kind: 'free'; pick: number }
  | { kind: 'reserve'; key: number; tokens: number; budget: boolean }
  | { kind: 'settle'; pick: number; tokens: number; cost: number }
  | { kind: 'charge'; key: number; tokens: number }
  | { kind: 'wait'; ms: number };

const key = fc.integer({ min: 0, max: 1 });
const pick = fc.nat();
const OPS: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('admit' as const), key }),
  fc.record({ kind: fc.constant('take' as const), key }),
  fc.record({ kind: fc.constant('free' as const), pick }),
  fc.record({ kind: fc.constant('reserve' as const), key, tokens: fc.integer({ min: 0, max: 900 }), budget: fc.boolean() }),
  fc.record({ kind: fc.constant('settle' as const), pick, tokens: fc.integer({ min: 0, max: 1200 }), cost: fc.integer({ min: 0, max: 3000 }) }),
  fc.record({ kind: fc.constant('charge' as const), key, tokens: fc.integer({ min: -5, max: 400 }) }),
  fc.record({ kind: fc.constant('wait' as const), ms: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 900, max: 2100 })) }),
);

const BUDGET = { period: 'd2026-11-25', limitNano: 10_000, ttlMs: 86_400_000 };

/** Runs `ops` on two stores on one clock: the reference through the promise API, the subject through its immediate operations. */
async function runBoth(ops: Op[]): Promise<void> {
  const clock = { time: 1_000_000 };
  const reference = createMemoryStore({ now: () => clock.time });
  const subject = getLocalStore(createMemoryStore({ now: () => clock.time }))!;
  const slots: Array<{ id: string; name: string }> = [];
  const reservations: Array<{ id: string; entry: string; handle: LocalReservation | undefined; tokens: number; cost: number; budget: boolean }> = [];
  let names = 0;
  for (const op of ops) {
    if (op.kind === 'wait') {
      clock.time += op.ms;
      continue;
    }
    const id = 'key' in op ? `k${op.key}` : '';
    if (op.kind === 'admit') {
      expect(subject.admit({ id, ...LIMITS, windowMs })).toEqual(await reference.admit({ id, ...LIMITS, windowMs }));
    } else if (op.kind === 'take') {
      const name = `s${++names}`;
      const expected = await reference.admit({ id, concurrency: LIMITS.concurrency, windowMs, slot: name });
      const refused = subject.takeSlot(id, LIMITS.concurrency);
      if (expected.verdict === 'ok') {
        expect(refused).toBeUndefined();
        slots.push({ id, name });
      } else expect(refused).toEqual({ verdict: 'concurrency', concurrency: expected.concurrency });
    } else if (op.kind === 'free' && slots.length > 0) {
      const [slot] = slots.splice(op.pick % slots.length, 1);
      await reference.release(slot.id, slot.name);
      subject.freeSlot(slot.id);
    } else if (op.kind === 'reserve') {
      const request = { id, tpm: LIMITS.tpm, tokens: op.tokens, windowMs, costNano: op.tokens, budget: op.budget ? BUDGET : undefined };
      const entry = `e${++names}`;
      const expected = await reference.reserve({ ...request, entry });
      const { reservation, ...result } = subject.reserve(request);
      expect(result).toEqual(expected);
      if (expected.verdict === 'ok') reservations.push({ id, entry, handle: reservation, tokens: op.tokens, cost: op.tokens, budget: op.budget });
    } else if (op.kind === 'settle' && reservations.length > 0) {
      const [held] = reservations.splice(op.pick % reservations.length, 1);
      const settle = { id: held.id, tpm: LIMITS.tpm, reservedTokens: held.tokens, tokens: op.tokens, windowMs, budget: held.budget ? BUDGET : undefined, reservedNano: held.cost, costNano: op.cost };
      await reference.settle({ ...settle, entry: held.entry });
      subject.settle({ ...settle, reservation: held.handle });
    } else if (op.kind === 'charge') {
      await reference.charge(id, op.tokens, windowMs);
      subject.charge(id, op.tokens, windowMs);
    }
  }
  for (const id of ['k0', 'k1']) {
    const state = { id, ...LIMITS, windowMs };
    expect(subject.admit(state)).toEqual(await reference.admit(state));
    const budget = { id, tpm: 0, tokens: 0, windowMs, costNano: 0, budget: BUDGET };
    expect(subject.reserve(budget)).toEqual(await reference.reserve({ ...budget, entry: 'last' }));
  }
}

describe('the memory store in this process, without names', () => {
  it('counts any sequence of checks, slots, reservations, settlements and charges as the promise API does', async () => {
    await fc.assert(fc.asyncProperty(fc.array(OPS, { maxLength: 80 }), runBoth), { numRuns: 300 });
  });

  it('settles a reservation whose window emptied and was made again as one that has left: nothing under its count', () => {
    const clock = { time: 5_000 };
    const store = getLocalStore(createMemoryStore({ now: () => clock.time }))!;
    const { reservation } = store.reserve({ id: 'k', tpm: 1000, tokens: 100, windowMs, costNano: 0 });
    clock.time += windowMs;
    expect(store.admit({ id: 'k', tpm: 1000, windowMs }).tokens).toMatchObject({ remaining: 1000 });
    // The new window's first run has the sequence number the reservation's had in the old one.
    store.charge('k', 300, windowMs);
    store.settle({ id: 'k', reservation, tpm: 1000, reservedTokens: 100, tokens: 40, windowMs, reservedNano: 0, costNano: 0 });
    expect(store.admit({ id: 'k', tpm: 1000, windowMs }).tokens).toEqual({ allowed: true, limit: 1000, remaining: 700, resetSeconds: 1 });
  });

  it('frees no more slots than it took', () => {
    const store = getLocalStore(createMemoryStore())!;
    store.freeSlot('k');
    expect(store.takeSlot('k', 1)).toBeUndefined();
    store.freeSlot('k');
    store.freeSlot('k');
    expect(store.takeSlot('k', 1)).toBeUndefined();
    expect(store.takeSlot('k', 1)).toEqual({ verdict: 'concurrency', concurrency: { limit: 1, inUse: 1 } });
  });
});
