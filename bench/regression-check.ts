/**
 * The "no regression" rule of DEVELOPERS.md for a `--baseline` run: every row compares the gateway at the
 * baseline commit (reference) with the gateway under test, both as deployed, in interleaved rounds; a row
 * regresses when the change makes it worse by more than its spread (the larger of the two sides').
 */
import type { ResultRow } from './report.ts';

/** Units where more is better; every other unit (µs, ms, MB) is better lower. */
const HIGHER_IS_BETTER = new Set(['req/s']);

/** Verdict of a baseline comparison. */
export interface RegressionVerdict {
  regressions: string[];
  lines: string[];
}

/** Judges each row that has both sides; rows without a reference are left out. */
export function judgeRegression(rows: ResultRow[]): RegressionVerdict {
  const regressions: string[] = [];
  const lines: string[] = [];
  for (const row of rows) {
    if (row.base === undefined || !(row.base > 0)) continue;
    const change = row.subject / row.base - 1;
    const spread = Math.max(row.baseSpread ?? 0, row.subjectSpread);
    const worse = HIGHER_IS_BETTER.has(row.unit) ? -change : change;
    const verdict = worse > spread ? 'REGRESSION' : worse < -spread ? 'better' : 'same (within spread)';
    const text = `${row.label}: ${(change * 100).toFixed(1)}% (spread ±${(spread * 100).toFixed(0)}%): ${verdict}`;
    lines.push(text);
    if (verdict === 'REGRESSION') regressions.push(text);
  }
  lines.push(regressions.length ? `${regressions.length} row(s) regressed beyond their spread.` : 'No row regressed beyond its spread.');
  return { regressions, lines };
}
