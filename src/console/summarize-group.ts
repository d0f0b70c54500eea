import { percentile } from './percentile.ts';
import { summarizeMinutes, type UsageSeries } from './summarize-minutes.ts';
import type { UsageRow } from './types.ts';

/** The overview's numbers over a set of rows. */
export interface UsageSummary {
  requests: number;
  /** Requests per second over the last minute. */
  requestsPerSecond: number;
  /** Share of the rows answered with a status of 400 or more (0 to 1). */
  errorRate: number;
  p50LatencyMs: number;
  p95LatencyMs: number;
  p50TtftMs: number;
  /** Input plus output tokens per minute over the last hour. */
  tokensPerMinute: number;
  spendUsd: number;
}

/** One group's numbers over the last hour and its chart data minute by minute. */
export interface UsageGroup {
  summary: UsageSummary;
  series: UsageSeries;
}

function summarize(rows: readonly UsageRow[], now: number): UsageSummary {
  const ttfb = rows.flatMap((row) => (row.ttfbMs === undefined || row.status >= 400 ? [] : [row.ttfbMs]));
  const tokens = rows.reduce((sum, row) => sum + row.inputTokens + row.outputTokens, 0);
  return {
    requests: rows.length,
    requestsPerSecond: rows.filter((row) => row.time >= now - 60_000).length / 60,
    errorRate: rows.length ? rows.filter((row) => row.status >= 400).length / rows.length : 0,
    p50LatencyMs: percentile(rows.map((row) => row.durationMs), 0.5),
    p95LatencyMs: percentile(rows.map((row) => row.durationMs), 0.95),
    p50TtftMs: percentile(ttfb, 0.5),
    tokensPerMinute: tokens / 60,
    spendUsd: rows.reduce((sum, row) => sum + (row.costUsd ?? 0), 0),
  };
}

/** One group of the last hour's rows (all, a style, a model) as the overview shows it: its numbers and its per-minute series. */
export function summarizeGroup(rows: readonly UsageRow[], now: number): UsageGroup {
  return { summary: summarize(rows, now), series: summarizeMinutes(rows, now) };
}
