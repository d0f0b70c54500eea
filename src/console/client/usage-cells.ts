/** The columns of a usage row, as the requests page and the overview's latest rows show them. */
export const FIELDS = ['time', 'key', 'style', 'model', 'vendor', 'status', 'tokens', 'ttfbMs', 'durationMs', 'costUsd'] as const;

/** A time as `HH:MM:SS.mmm` UTC, or blank when it is not a date. */
export function formatClock(ms: unknown): string {
  const time = new Date(typeof ms === 'number' ? ms : Number.NaN);
  return Number.isNaN(time.getTime()) ? '' : time.toISOString().slice(11, 23);
}

/** Milliseconds to one decimal (`12.3`), or blank when it is not a finite number. */
export function formatMs(ms: unknown): string {
  return typeof ms === 'number' && Number.isFinite(ms) ? (Math.round(ms * 10) / 10).toFixed(1) : '';
}

/** A usage row's cells as text, in the order of {@link FIELDS}. */
export function cellsOf(row: any): string[] {
  return [
    formatClock(row.time),
    row.key ?? '',
    row.style,
    row.model ?? '',
    row.vendor ?? '',
    `${row.status}${row.error ? ` ${row.error}` : ''}`,
    `${row.inputTokens}/${row.outputTokens}`,
    formatMs(row.ttfbMs),
    formatMs(row.durationMs),
    row.costUsd === undefined ? '' : row.costUsd.toFixed(6),
  ];
}
