import type { UsageEvent } from '../runtime/types.ts';
import type { UsageRow } from './types.ts';

/** How many rows the live tail's backlog can send (it sends the latest 200). */
export const RECENT_ROWS = 200;

/**
 * A row with every field present (absent ones undefined, left out of its JSON): one shape for every row.
 * Its style is a blank until the row is written (no style is named here).
 */
export function createEmptyRow(): UsageRow {
  return { time: 0, key: undefined, style: '' as UsageRow['style'], model: undefined, vendor: undefined, status: 0, error: undefined, inputTokens: 0, outputTokens: 0, ttfbMs: undefined, durationMs: 0, costUsd: undefined, pid: 0 };
}

/** Writes the console's row of `event` into `row` (no body, no client address, no request id) and returns it. */
export function writeUsageRow(row: UsageRow, event: UsageEvent, time: number): UsageRow {
  row.time = time;
  row.key = event.key;
  row.style = event.style;
  row.model = event.model;
  row.vendor = event.vendor;
  row.status = event.status;
  row.error = event.error;
  row.inputTokens = event.usage.inputTokens ?? 0;
  row.outputTokens = event.usage.outputTokens ?? 0;
  row.ttfbMs = event.ttfbMs;
  row.durationMs = event.durationMs;
  row.costUsd = event.costUsd;
  row.pid = event.pid;
  return row;
}

/** Copies `from` (a worker's row) into `row` field by field and returns it. */
export function copyUsageRow(row: UsageRow, from: UsageRow): UsageRow {
  row.time = from.time;
  row.key = from.key;
  row.style = from.style;
  row.model = from.model;
  row.vendor = from.vendor;
  row.status = from.status;
  row.error = from.error;
  row.inputTokens = from.inputTokens;
  row.outputTokens = from.outputTokens;
  row.ttfbMs = from.ttfbMs;
  row.durationMs = from.durationMs;
  row.costUsd = from.costUsd;
  row.pid = from.pid;
  return row;
}
