import type { KeyUsage, UsageRow } from '../types.ts';
import { addToSecondRing, createSecondRing, sumSecondRing, type SecondRing } from './second-ring.ts';

/** One key's usage for the keys page: requests and tokens of the last minute by the second, spend per minute for an hour. */
export interface KeyTally {
  seconds: SecondRing;
  /** The minute each slot's spend counts (-1: none), and that spend. */
  spendMinutes: Float64Array;
  spend: Float64Array;
  lastMinute: number;
}

/** An empty key tally. */
export function createKeyTally(): KeyTally {
  return { seconds: createSecondRing(), spendMinutes: new Float64Array(60).fill(-1), spend: new Float64Array(60), lastMinute: -1 };
}

/** Empties `tally` for reuse by another key. */
export function resetKeyTally(tally: KeyTally): void {
  tally.seconds.seconds.fill(-1);
  tally.spendMinutes.fill(-1);
  tally.lastMinute = -1;
}

/** Counts `row` at second `secondOfMinute` of `minute`: O(1), no allocation. */
export function addToKeyTally(tally: KeyTally, row: UsageRow, minute: number, secondOfMinute: number): void {
  const slot = minute % 60;
  if (tally.spendMinutes[slot] !== minute) {
    if (tally.spendMinutes[slot] > minute) return;
    tally.spendMinutes[slot] = minute;
    tally.spend[slot] = 0;
  }
  tally.spend[slot] += row.costUsd ?? 0;
  addToSecondRing(tally.seconds, minute, secondOfMinute, row.inputTokens + row.outputTokens);
  if (minute > tally.lastMinute) tally.lastMinute = minute;
}

/** The key's requests and tokens over the last 60 seconds and its spend over the hour ending at `now`. */
export function readKeyTally(tally: KeyTally, now: number): KeyUsage {
  const nowMinute = Math.floor(now / 60_000);
  let spend = 0;
  for (let slot = 0; slot < 60; slot++) if (tally.spendMinutes[slot] > nowMinute - 60 && tally.spendMinutes[slot] <= nowMinute) spend += tally.spend[slot];
  const nowSecond = Math.floor(now / 1000);
  return { requestsLastMinute: sumSecondRing(tally.seconds, nowSecond, 'requests'), tokensLastMinute: sumSecondRing(tally.seconds, nowSecond, 'tokens'), spendLastHourUsd: spend };
}
