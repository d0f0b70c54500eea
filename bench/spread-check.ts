/**
 * The method: at least 5 interleaved rounds, and every judged row spreading at most ±10% between
 * rounds. Spread is half the range, which more rounds can only widen: longer rounds (`--duration`) or a
 * quieter machine narrow it. This says plainly whether a run meets the method.
 */
import type { ResultRow } from './report.ts';

/** Widest spread (half the range over the median) a judged row may have. */
export const MAX_SPREAD = 0.1;
/** Fewest interleaved rounds of a run whose verdicts count. */
export const MIN_ROUNDS = 5;

/** Whether a run meets the method, and the lines saying so. */
export interface SpreadVerdict {
  ok: boolean;
  lines: string[];
}

const pct = (value: number | undefined) => (value === undefined ? '—' : `±${Math.round(value * 100)}%`);

/** A row judged against one of the targets: the rows a run's spread is checked on by default. */
export const hasTarget = (row: ResultRow): boolean => row.verdict !== undefined;
/** A row compared with the baseline commit: the rows a `--baseline` run (whose targets do not apply) judges. */
export const hasBaseline = (row: ResultRow): boolean => row.base !== undefined && row.base > 0;

/** Checks the spreads of the rows `isJudged` picks and the number of rounds. */
export function checkSpread(rows: ResultRow[], rounds: number, isJudged: (row: ResultRow) => boolean = hasTarget): SpreadVerdict {
  const judged = rows.filter(isJudged);
  const wide = judged.filter((row) => (row.baseSpread ?? 0) > MAX_SPREAD || row.subjectSpread > MAX_SPREAD);
  const lines: string[] = [];
  if (rounds < MIN_ROUNDS) lines.push(`TOO FEW ROUNDS: ${rounds} round(s); the issue's method wants at least ${MIN_ROUNDS} interleaved rounds (--rounds ${MIN_ROUNDS}).`);
  if (wide.length) {
    const list = wide.map((row) => `"${row.label}" (${pct(row.baseSpread)} / ${pct(row.subjectSpread)})`).join(', ');
    lines.push(
      `SPREAD TOO WIDE: ${wide.length} of ${judged.length} judged rows spread more than ±${MAX_SPREAD * 100}% between rounds: ${list}. ` +
        'The method wants at most ±10%: rerun with longer rounds (e.g. --duration 20, or more --lengthen) on a quieter machine.',
    );
  } else if (judged.length) lines.push(`Spread: every judged row within ±${MAX_SPREAD * 100}% between rounds.`);
  else lines.push('Spread: no row of this run is judged, so none is checked.');
  return { ok: rounds >= MIN_ROUNDS && wide.length === 0, lines };
}
