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

function percentile(values: number[], share: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
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

function groupBy(rows: readonly UsageRow[], pick: (row: UsageRow) => string | undefined, now: number): Record<string, UsageSummary> {
  const groups = new Map<string, UsageRow[]>();
  for (const row of rows) {
    const name = pick(row) ?? '(none)';
    let group = groups.get(name);
    if (!group) groups.set(name, (group = []));
    group.push(row);
  }
  return Object.fromEntries([...groups].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, group]) => [name, summarize(group, now)]));
}

/**
 * The console's overview over the last hour of this process's usage rows: in total, per style and per
 * model, plus requests per minute for the chart (60 buckets, oldest first).
 */
export function summarizeUsage(rows: readonly UsageRow[], now = Date.now()) {
  const recent = rows.filter((row) => row.time >= now - 3_600_000);
  const perMinute = Array.from({ length: 60 }, () => 0);
  for (const row of recent) perMinute[Math.max(0, 59 - Math.floor((now - row.time) / 60_000))] += 1;
  return { total: summarize(recent, now), byStyle: groupBy(recent, (row) => row.style, now), byModel: groupBy(recent, (row) => row.model, now), perMinute };
}
