import { describe, expect, it } from 'vitest';
import { judgeRegression } from '../../bench/regression-check.ts';
import type { ResultRow } from '../../bench/report.ts';

function row(label: string, unit: string, base: number, subject: number, baseSpread = 0.05, subjectSpread = 0.05): ResultRow {
  return { label, unit, digits: 0, base, subject, baseSpread, subjectSpread };
}

describe('the no-regression rule of a --baseline run', () => {
  it('calls a row a regression only when it is worse by more than the larger spread, in the direction its unit says', () => {
    const { regressions, lines } = judgeRegression([
      row('rps slower beyond spread', 'req/s', 1000, 900),
      row('rps slower within spread', 'req/s', 1000, 960, 0.02, 0.05),
      row('rps faster', 'req/s', 1000, 1200),
      row('cpu higher beyond spread', 'µs', 100, 112),
      row('cpu lower', 'µs', 100, 80),
      row('memory higher within spread', 'MB', 50, 52),
      { label: 'no reference', unit: 'ms', digits: 0, subject: 5, subjectSpread: 0 },
    ]);
    expect(regressions.map((line) => line.split(':')[0])).toEqual(['rps slower beyond spread', 'cpu higher beyond spread']);
    expect(lines).toContain('rps faster: 20.0% (spread ±5%): better');
    expect(lines).toContain('rps slower within spread: -4.0% (spread ±5%): same (within spread)');
    expect(lines.some((line) => line.startsWith('no reference'))).toBe(false);
    expect(lines.at(-1)).toBe('2 row(s) regressed beyond their spread.');
  });

  it('says so when nothing regressed', () => {
    expect(judgeRegression([row('same', 'req/s', 1000, 1000)]).lines.at(-1)).toBe('No row regressed beyond its spread.');
  });
});
