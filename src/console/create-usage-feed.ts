import { createUsageAggregate } from './aggregate/create-usage-aggregate.ts';
import { copyUsageRow, createEmptyRow, RECENT_ROWS, writeUsageRow } from './recent-rows.ts';
import type { UsageFeed, UsageRow } from './types.ts';

/**
 * The usage feed of one process: every event is counted in the last hour's aggregate (see
 * create-usage-aggregate.ts), written over the oldest of a ring of {@link RECENT_ROWS} row objects (the
 * live tail's backlog) and handed to the tails that follow it. No allocation per event in the steady state.
 */
export function createUsageFeed(clock: () => number = Date.now): UsageFeed {
  const ring = Array.from({ length: RECENT_ROWS }, createEmptyRow);
  let written = 0;
  const aggregate = createUsageAggregate(clock);
  const followers = new Set<(row: UsageRow) => void>();
  const keep = (row: UsageRow) => {
    written += 1;
    aggregate.record(row);
    if (followers.size > 0) for (const follower of followers) follower(row);
  };
  return {
    // Plain closures, not methods: the gateway calls `record` detached, as one of its usage receivers.
    record: (event) => keep(writeUsageRow(ring[written % RECENT_ROWS], event, clock())),
    add: (row) => keep(copyUsageRow(ring[written % RECENT_ROWS], row)),
    follow(listener) {
      followers.add(listener);
      return () => followers.delete(listener);
    },
    listRecent() {
      const rows: UsageRow[] = [];
      for (let i = Math.max(0, written - RECENT_ROWS); i < written; i++) rows.push(ring[i % RECENT_ROWS]);
      return rows;
    },
    aggregate,
  };
}
