import { describe, expect, it } from 'vitest';
import { HEADROOM_RATIO, judgeHeadroom } from '../../bench/headroom-check.ts';
import { defineRows, type ResultRow } from '../../bench/report.ts';
import { HEADROOM_SCENARIOS } from '../../bench/scenarios/headroom.ts';

/** A headroom row: the floor forwards `floor` requests/s, the vendor serves `vendor` directly. */
function defineHeadroomRow(label: string, floor: number, vendor: number): ResultRow {
  const metric = { id: 'rps', label, unit: 'req/s', target: { kind: 'min-ratio', ratio: HEADROOM_RATIO } as const };
  return defineRows({ metrics: [metric], baseLabel: 'floor', subjectLabel: 'vendor, directly', base: [{ rps: floor }], subject: [{ rps: vendor }] })[0];
}

describe('the vendor headroom check', () => {
  it('refuses to report ratios when the vendor serves less than 1.3x what the floor forwards, naming the row', () => {
    const verdict = judgeHeadroom([defineHeadroomRow('chat c=64', 10_000, 16_000), defineHeadroomRow('stream c=64', 5_000, 6_450)]);
    expect(verdict.refused).toBe(true);
    expect(verdict.lines[0]).toBe('vendor headroom: chat c=64: vendor 16,000, floor 10,000 (1.60x, needs >= 1.3x)');
    expect(verdict.lines[1]).toBe('vendor headroom: stream c=64: vendor 6,450, floor 5,000 (1.29x, needs >= 1.3x)');
    expect(verdict.lines[2]).toMatch(/^REFUSED: the vendor serves less than 1\.3x what the floor forwards \(1\.29x in "stream c=64"\): .*no ratio of this run is reported/);
  });

  it('accepts a vendor at 1.3x or more on every row', () => {
    const verdict = judgeHeadroom([defineHeadroomRow('chat c=64', 10_000, 13_000), defineHeadroomRow('stream c=64', 5_000, 8_000)]);
    expect(verdict.refused).toBe(false);
    expect(verdict.lines).toHaveLength(2);
    expect(verdict.lines.join('\n')).not.toContain('REFUSED');
  });

  it('refuses when the headroom was not measured, or a row has no ratio', () => {
    expect(judgeHeadroom([])).toEqual({ refused: true, lines: ['REFUSED: the vendor headroom was not measured, so no ratio of this run is reported.'] });
    const verdict = judgeHeadroom([defineHeadroomRow('chat c=64', 0, 13_000)]);
    expect(verdict.refused).toBe(true);
    expect(verdict.lines.at(-1)).toContain('(no ratio in "chat c=64")');
  });

  it('measures chat, stream and the Anthropic messages stream, each judged against 1.3x, in at most 3 rounds of at most 5 s', () => {
    expect(HEADROOM_SCENARIOS.map((s) => s.id)).toEqual(['headroom-chat', 'headroom-stream', 'headroom-messages']);
    for (const scenario of HEADROOM_SCENARIOS) {
      expect(scenario.metrics.map((m) => m.target)).toEqual([{ kind: 'min-ratio', ratio: 1.3 }]);
      expect(scenario.rounds!({ rounds: 5 } as never)).toBe(3);
      expect(scenario.rounds!({ rounds: 1 } as never)).toBe(1);
    }
  });
});
