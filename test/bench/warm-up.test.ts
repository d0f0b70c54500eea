import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_WARMUP_ROUNDS, SETTLED_SPREAD, warmUntilSettled } from '../../bench/warm-up.ts';

/** A warm-up round that reports the next of `costs` (CPU µs per request) and counts its calls. */
function defineRounds(costs: number[]) {
  const rounds = { calls: 0, next: async () => costs[rounds.calls++] ?? costs[costs.length - 1] };
  return rounds;
}

describe('the warm-up of a load scenario', () => {
  it('goes on while the cost per request still falls, and stops at the first two rounds that agree within 10%', async () => {
    const rounds = defineRounds([496, 261, 240, 232, 230]);
    expect(await warmUntilSettled(rounds.next)).toEqual([496, 261, 240]);
    expect(rounds.calls).toBe(3);
  });

  it('stops after the most rounds when the costs never agree (a busy machine)', async () => {
    const rounds = defineRounds([400, 200, 400, 200, 400, 200, 400, 200]);
    expect(await warmUntilSettled(rounds.next)).toHaveLength(MAX_WARMUP_ROUNDS);
    expect(rounds.calls).toBe(MAX_WARMUP_ROUNDS);
  });

  it('runs one round when asked for one (a quick run), and never counts a round without a cost as settled', async () => {
    expect(await warmUntilSettled(defineRounds([300]).next, 1)).toEqual([300]);
    expect(await warmUntilSettled(defineRounds([Number.NaN, Number.NaN, 200, 205]).next)).toEqual([Number.NaN, Number.NaN, 200, 205]);
  });

  it('ends on two rounds within the settled spread, or at the most rounds, whatever the costs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.double({ min: 1, max: 10_000, noNaN: true }), { minLength: 1, maxLength: 12 }), async (costs) => {
        const got = await warmUntilSettled(defineRounds(costs).next);
        const [previous, latest] = got.slice(-2);
        const settled = got.length >= 2 && Math.abs(latest - previous) <= SETTLED_SPREAD * Math.min(previous, latest);
        expect(settled || got.length === MAX_WARMUP_ROUNDS).toBe(true);
        expect(got.length).toBeLessThanOrEqual(MAX_WARMUP_ROUNDS);
      }),
    );
  });
});
