import type { UsageEvent } from '../runtime/types.ts';
import type { UsageFeed, UsageRow } from './types.ts';

/** How long rows are kept, and at most how many (the oldest go first). */
const KEEP_MS = 60 * 60 * 1000;
const KEEP_ROWS = 20_000;

/** The console's row of a usage event: no body, no client address, no request id. */
export function toUsageRow(event: UsageEvent, time = Date.now()): UsageRow {
  const { usage } = event;
  return {
    time,
    ...(event.key === undefined ? {} : { key: event.key }),
    style: event.style,
    ...(event.model === undefined ? {} : { model: event.model }),
    ...(event.vendor === undefined ? {} : { vendor: event.vendor }),
    status: event.status,
    ...(event.error === undefined ? {} : { error: event.error }),
    inputTokens: usage.inputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
    ...(event.ttfbMs === undefined ? {} : { ttfbMs: event.ttfbMs }),
    durationMs: event.durationMs,
    ...(event.costUsd === undefined ? {} : { costUsd: event.costUsd }),
    pid: event.pid,
  };
}

/**
 * The usage feed of one process: every event becomes a {@link UsageRow} kept for an hour (at most
 * about 20,000), handed to the live tails that follow it. Recording is a push and a loop over the followers.
 */
export function createUsageFeed(): UsageFeed {
  const rows: UsageRow[] = [];
  const followers = new Set<(row: UsageRow) => void>();
  const add = (row: UsageRow) => {
    rows.push(row);
    // Trimmed in batches (a tenth past the cap, or a minute past the hour), not one row per event.
    if (rows.length > KEEP_ROWS + KEEP_ROWS / 10 || rows[0].time < row.time - KEEP_MS - 60_000) {
      const cut = rows.findIndex((kept) => kept.time >= row.time - KEEP_MS);
      rows.splice(0, Math.max(cut, rows.length - KEEP_ROWS));
    }
    for (const follower of followers) follower(row);
  };
  return {
    // Plain closures, not methods: the gateway calls `record` detached, as one of its usage receivers.
    record: (event) => add(toUsageRow(event)),
    add,
    follow(listener) {
      followers.add(listener);
      return () => followers.delete(listener);
    },
    listRows: () => rows,
  };
}
