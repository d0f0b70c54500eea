import { percentile } from './percentile.ts';
import type { UsageRow } from './types.ts';

/** The metrics the overview charts, one value per minute. */
export const SERIES_METRICS = ['requestsPerSecond', 'errorRate', 'p50LatencyMs', 'p95LatencyMs', 'p50TtftMs', 'tokensPerMinute', 'spendUsd'] as const;
export type SeriesMetric = (typeof SERIES_METRICS)[number];

/** The last hour minute by minute: 60 values per metric, oldest first (the last one is the minute ending now). */
export type UsageSeries = Record<SeriesMetric, number[]>;

/** How many minutes a series covers. */
export const SERIES_MINUTES = 60;

function summarizeMinute(rows: readonly UsageRow[]): Record<SeriesMetric, number> {
  const errors = rows.filter((row) => row.status >= 400).length;
  const ttfb = rows.flatMap((row) => (row.ttfbMs === undefined || row.status >= 400 ? [] : [row.ttfbMs]));
  const durations = rows.map((row) => row.durationMs);
  return {
    requestsPerSecond: rows.length / 60,
    errorRate: rows.length ? errors / rows.length : 0,
    p50LatencyMs: percentile(durations, 0.5),
    p95LatencyMs: percentile(durations, 0.95),
    p50TtftMs: percentile(ttfb, 0.5),
    tokensPerMinute: rows.reduce((sum, row) => sum + row.inputTokens + row.outputTokens, 0),
    spendUsd: rows.reduce((sum, row) => sum + (row.costUsd ?? 0), 0),
  };
}

/**
 * The overview's chart data over `rows`: each metric per minute of the last hour (a minute with no request
 * is 0). Rows older than an hour are left out.
 */
export function summarizeMinutes(rows: readonly UsageRow[], now: number): UsageSeries {
  const minutes = Array.from({ length: SERIES_MINUTES }, (): UsageRow[] => []);
  for (const row of rows) {
    // A row stamped a little ahead (another process's clock) counts in the last minute.
    const ago = Math.max(0, Math.floor((now - row.time) / 60_000));
    if (ago < SERIES_MINUTES) minutes[SERIES_MINUTES - 1 - ago].push(row);
  }
  const series = Object.fromEntries(SERIES_METRICS.map((metric) => [metric, [] as number[]])) as UsageSeries;
  for (const minute of minutes) {
    const values = summarizeMinute(minute);
    // Four significant digits: enough for a chart, and the overview's JSON stays small.
    for (const metric of SERIES_METRICS) series[metric].push(Number(values[metric].toPrecision(4)));
  }
  return series;
}
