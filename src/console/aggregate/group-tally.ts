import type { UsageRow } from '../types.ts';
import { addToMinuteTally, createMinuteTally, resetMinuteTally, type MinuteTally } from './minute-tally.ts';
import { addToSecondRing, createSecondRing, type SecondRing } from './second-ring.ts';

/** Minutes a group keeps: the overview's hour. */
export const RING_MINUTES = 60;

/** One group's last hour (all requests, a style, a model): a ring of minute tallies and the last minute by the second. */
export interface GroupTally {
  /** Slot `minute % 60` counts that minute; a slot is reused (emptied in place) when its minute comes round again. */
  minutes: MinuteTally[];
  seconds: SecondRing;
  /** The newest minute counted (-1: none). */
  lastMinute: number;
}

/** An empty group: its 60 minute tallies are allocated here, once. */
export function createGroupTally(): GroupTally {
  return { minutes: Array.from({ length: RING_MINUTES }, createMinuteTally), seconds: createSecondRing(), lastMinute: -1 };
}

/** Empties `group` for reuse (its minutes are emptied lazily, when counted again). */
export function resetGroupTally(group: GroupTally): void {
  for (const tally of group.minutes) tally.minute = -1;
  group.seconds.seconds.fill(-1);
  group.lastMinute = -1;
}

/**
 * Counts `row` at second `secondOfMinute` of `minute` in `group`: O(1), no allocation. A row older than the
 * minute its slot now counts (more than an hour behind the newest) is dropped.
 */
export function addToGroup(group: GroupTally, row: UsageRow, minute: number, secondOfMinute: number): void {
  const tally = group.minutes[minute % RING_MINUTES];
  if (tally.minute !== minute) {
    if (tally.minute > minute) return;
    resetMinuteTally(tally, minute);
  }
  addToMinuteTally(tally, row);
  addToSecondRing(group.seconds, minute, secondOfMinute, row.inputTokens + row.outputTokens);
  if (minute > group.lastMinute) group.lastMinute = minute;
}

/** The requests `group` counted in the hour ending with `nowMinute`. */
export function countGroupRequests(group: GroupTally, nowMinute: number): number {
  let requests = 0;
  for (const tally of group.minutes) if (tally.minute > nowMinute - RING_MINUTES && tally.minute <= nowMinute) requests += tally.requests;
  return requests;
}
