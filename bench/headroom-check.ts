/**
 * Judges the vendor headroom rows (bench/scenarios/headroom.ts): when the vendor serves less than 1.3x
 * what the floor forwards, the vendor, not the proxies, may be what sets the rates, and the bench refuses
 * to report ratios.
 */
import type { ResultRow } from './report.ts';

/** The vendor must serve at least this multiple of what the floor forwards. */
export const HEADROOM_RATIO = 1.3;

/** The verdict on a run's vendor headroom, with the lines to print. */
export interface HeadroomVerdict {
  refused: boolean;
  lines: string[];
}

const formatRate = (value: number | undefined) => (value === undefined ? '—' : Math.round(value).toLocaleString('en-US'));

/** Reads the headroom rows: one line per row, and a REFUSED line when any is under 1.3x (or none was measured). */
export function judgeHeadroom(rows: ResultRow[]): HeadroomVerdict {
  const lines = rows.map(
    (row) =>
      `vendor headroom: ${row.label}: vendor ${formatRate(row.subject)}, floor ${formatRate(row.base)} ` +
      `(${row.ratio === undefined ? 'no ratio' : `${row.ratio.toFixed(2)}x`}, needs >= ${HEADROOM_RATIO}x)`,
  );
  const low = rows.filter((row) => row.ratio === undefined || !(row.ratio >= HEADROOM_RATIO));
  if (rows.length === 0) lines.push('REFUSED: the vendor headroom was not measured, so no ratio of this run is reported.');
  else if (low.length) {
    const worst = low.map((row) => `${row.ratio === undefined ? 'no ratio' : `${row.ratio.toFixed(2)}x`} in "${row.label}"`).join(', ');
    lines.push(
      `REFUSED: the vendor serves less than ${HEADROOM_RATIO}x what the floor forwards (${worst}): the vendor, not the proxies, ` +
        'may be setting the rates, so no ratio of this run is reported. Rerun on a quieter machine.',
    );
  }
  return { refused: rows.length === 0 || low.length > 0, lines };
}
