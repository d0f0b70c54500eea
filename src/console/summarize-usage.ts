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

/** The console's overview: the last hour in total, per style and per model. */
export interface UsageOverview {
  total: UsageGroup;
  byStyle: Record<string, UsageGroup>;
  byModel: Record<string, UsageGroup>;
}

/**
 * At most this many groups per dimension (model names come from clients): the busiest ones, the others
 * summed as {@link OTHERS}. The overview's size is then bounded whatever the requests were.
 */
export const MAX_GROUPS = 20;
export const OTHERS = '(others)';

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

const describeGroup = (rows: readonly UsageRow[], now: number): UsageGroup => ({ summary: summarize(rows, now), series: summarizeMinutes(rows, now) });

function groupBy(rows: readonly UsageRow[], pick: (row: UsageRow) => string | undefined, now: number): Record<string, UsageGroup> {
  const groups = new Map<string, UsageRow[]>();
  for (const row of rows) {
    const name = pick(row) ?? '(none)';
    let group = groups.get(name);
    if (!group) groups.set(name, (group = []));
    group.push(row);
  }
  const busiest = [...groups].sort(([a, rowsA], [b, rowsB]) => rowsB.length - rowsA.length || (a < b ? -1 : 1));
  const kept = busiest.length > MAX_GROUPS ? busiest.slice(0, MAX_GROUPS - 1) : busiest;
  if (kept.length < busiest.length) kept.push([OTHERS, busiest.slice(MAX_GROUPS - 1).flatMap(([, group]) => group)]);
  return Object.fromEntries(kept.sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, group]) => [name, describeGroup(group, now)]));
}

/**
 * The console's overview over the last hour of usage rows: in total, per style and per model (at most
 * {@link MAX_GROUPS} each), each with its numbers and its chart data (60 per-minute buckets per metric).
 */
export function summarizeUsage(rows: readonly UsageRow[], now = Date.now()): UsageOverview {
  const recent = rows.filter((row) => row.time >= now - 3_600_000);
  return { total: describeGroup(recent, now), byStyle: groupBy(recent, (row) => row.style, now), byModel: groupBy(recent, (row) => row.model, now) };
}
