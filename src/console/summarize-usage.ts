import { summarizeGroup, type UsageGroup } from './summarize-group.ts';
import type { UsageRow } from './types.ts';

export type { UsageGroup, UsageSummary } from './summarize-group.ts';

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
  return Object.fromEntries(kept.sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, group]) => [name, summarizeGroup(group, now)]));
}

/**
 * The console's overview over the last hour of usage rows: in total, per style and per model (at most
 * {@link MAX_GROUPS} each), each with its numbers and its chart data (60 per-minute buckets per metric).
 */
export function summarizeUsage(rows: readonly UsageRow[], now = Date.now()): UsageOverview {
  const recent = rows.filter((row) => row.time >= now - 3_600_000);
  return { total: summarizeGroup(recent, now), byStyle: groupBy(recent, (row) => row.style, now), byModel: groupBy(recent, (row) => row.model, now) };
}
