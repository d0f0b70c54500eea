import { describe, expect, it } from 'vitest';
import { hasTarget } from '../../bench/spread-check.ts';
import { runUntilSteady } from '../../bench/run-until-steady.ts';
import type { BenchContext, Measured, Scenario, Side } from '../../bench/scenarios/types.ts';

const floor = { label: 'floor', kind: 'floor', pid: 1, origin: 'http://127.0.0.1:1' } as Side;
const gateway = { label: 'gateway', kind: 'gateway', pid: 2, origin: 'http://127.0.0.1:2' } as Side;
const ctx = { rounds: 3, roundS: 10, notes: [], floor, gateway } as unknown as BenchContext;

/**
 * A scenario whose gateway rounds are scripted per round length (`bySeconds[roundS]`), the floor steady at
 * 100; records the round lengths it was measured with.
 */
function defineScripted(bySeconds: Record<number, number[]>, lengthens = true) {
  const lengths: number[] = [];
  const next = new Map<number, number>();
  const scenario: Scenario = {
    id: 'chat-c64',
    title: 'Chat passthrough, c=64',
    lengthens,
    metrics: [{ id: 'rps', label: 'Chat c=64 requests/s', unit: 'req/s', target: { kind: 'min-ratio', ratio: 0.9 } }],
    async measure(run, side): Promise<Measured> {
      if (side === floor) return { rps: 100 };
      lengths.push(run.roundS);
      const i = next.get(run.roundS) ?? 0;
      next.set(run.roundS, i + 1);
      return { rps: bySeconds[run.roundS][i] };
    },
  };
  return { scenario, lengths };
}

const options = { lengthenings: 2, labels: {}, isJudged: hasTarget, log: () => {} };

describe('measuring a scenario again with longer rounds until its judged rows are steady', () => {
  it('keeps a first measurement within ±10% and adds no note', async () => {
    const { scenario, lengths } = defineScripted({ 10: [95, 96, 94] });
    const steady = await runUntilSteady(ctx, scenario, options);
    expect(lengths).toEqual([10, 10, 10]);
    expect(steady.rows[0].subject).toBe(95);
    expect(steady.note).toBeUndefined();
  });

  it('doubles the rounds while a judged row spreads over ±10%, reports the last measurement and says so', async () => {
    const { scenario, lengths } = defineScripted({ 10: [60, 95, 96], 20: [70, 90, 92], 40: [91, 92, 93] });
    const steady = await runUntilSteady(ctx, scenario, options);
    expect(lengths).toEqual([10, 10, 10, 20, 20, 20, 40, 40, 40]);
    expect(steady.rows[0].subject).toBe(92);
    expect(steady.note).toBe('Chat passthrough, c=64: widest judged spread ±19% with 10 s rounds, then ±12% with 20 s rounds, then ±1% with 40 s rounds; the table shows the last (40 s rounds).');
  });

  it('stops after the lengthenings allowed and reports the last, still wide, measurement', async () => {
    const { scenario, lengths } = defineScripted({ 10: [60, 95, 96], 20: [60, 90, 96] });
    const steady = await runUntilSteady(ctx, scenario, { ...options, lengthenings: 1 });
    expect(lengths).toEqual([10, 10, 10, 20, 20, 20]);
    expect(steady.rows[0].subject).toBe(90);
    expect(steady.note).toMatch(/then ±20% with 20 s rounds; the table shows the last \(20 s rounds\)\.$/);
  });

  it('never reruns a scenario whose rounds do not grow with their length', async () => {
    const { scenario, lengths } = defineScripted({ 10: [60, 95, 96] }, false);
    const steady = await runUntilSteady(ctx, scenario, options);
    expect(lengths).toEqual([10, 10, 10]);
    expect(steady.note).toBeUndefined();
  });
});
