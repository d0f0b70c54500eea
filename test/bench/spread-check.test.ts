import { describe, expect, it } from 'vitest';
import { defineRows } from '../../bench/report.ts';
import { checkSpread, hasBaseline } from '../../bench/spread-check.ts';
import type { Measured } from '../../bench/scenarios/types.ts';

const judged = { id: 'rps', label: 'Chat c=64 requests/s', unit: 'req/s', target: { kind: 'min-ratio', ratio: 0.9 } as const };
const info = { id: 'rps', label: 'Images requests/s', unit: 'req/s' };
const rounds = (...values: number[]): Measured[] => values.map((rps) => ({ rps }));

describe('the spread check', () => {
  it('passes five rounds whose judged rows stay within ±10%, whatever the rows without a target do', () => {
    const rows = [
      ...defineRows({ metrics: [judged], baseLabel: 'floor', subjectLabel: 'gateway', base: rounds(100, 95, 105, 100, 100), subject: rounds(90, 92, 88, 90, 90) }),
      ...defineRows({ metrics: [info], subjectLabel: 'gateway', base: [], subject: rounds(5, 10, 8, 7, 7) }),
    ];
    expect(checkSpread(rows, 5)).toEqual({ ok: true, lines: ['Spread: every judged row within ±10% between rounds.'] });
  });

  it('never says rows without a target stayed within ±10% (a run where no row is judged checks none)', () => {
    const rows = defineRows({ metrics: [info], baseLabel: 'gateway at main', subjectLabel: 'gateway', base: rounds(100, 300, 100, 100, 100), subject: rounds(5, 10, 8, 7, 7) });
    const verdict = checkSpread(rows, 5);
    expect(verdict.lines).toEqual(['Spread: no row of this run is judged, so none is checked.']);
  });

  it('names each judged row that spreads more than ±10% and says how to narrow it', () => {
    const rows = defineRows({ metrics: [judged], baseLabel: 'floor', subjectLabel: 'gateway', base: rounds(100, 100, 100, 100, 100), subject: rounds(80, 90, 102, 90, 90) });
    const verdict = checkSpread(rows, 5);
    expect(verdict.ok).toBe(false);
    expect(verdict.lines).toHaveLength(1);
    expect(verdict.lines[0]).toMatch(/^SPREAD TOO WIDE: 1 of 1 judged rows spread more than ±10% between rounds: "Chat c=64 requests\/s" \(±0% \/ ±12%\)\. .*--duration/);
  });

  it('says a run of fewer than 5 rounds does not meet the method', () => {
    const rows = defineRows({ metrics: [judged], baseLabel: 'floor', subjectLabel: 'gateway', base: rounds(100), subject: rounds(95) });
    const verdict = checkSpread(rows, 1);
    expect(verdict.ok).toBe(false);
    expect(verdict.lines[0]).toBe("TOO FEW ROUNDS: 1 round(s); the issue's method wants at least 5 interleaved rounds (--rounds 5).");
  });

  it('in a --baseline run (no target verdicts) checks the rows compared with the baseline, and never claims a spread it did not check', () => {
    const compared = defineRows({ metrics: [judged], baseLabel: 'baseline', subjectLabel: 'gateway', base: rounds(100, 60, 140, 100, 100), subject: rounds(100, 100, 100, 100, 100) });
    for (const row of compared) row.verdict = undefined;
    const verdict = checkSpread(compared, 5, hasBaseline);
    expect(verdict.ok).toBe(false);
    expect(verdict.lines[0]).toMatch(/^SPREAD TOO WIDE: 1 of 1 judged rows spread more than ±10% between rounds: "Chat c=64 requests\/s" \(±40% \/ ±0%\)/);
    expect(checkSpread(compared, 5).lines).toEqual(['Spread: no row of this run is judged, so none is checked.']);
  });
});
