import type { UsageRow } from '../types.ts';
import { addToHistogram, createHistogram, mergeHistogram, resetHistogram, type Histogram } from './histogram.ts';

/** One minute of one group's requests: sums, and latency and time to first token as histograms. */
export interface MinuteTally {
  /** The minute counted (minutes since the epoch); -1 when none yet. */
  minute: number;
  requests: number;
  errors: number;
  tokens: number;
  spendUsd: number;
  latency: Histogram;
  /** Time to first byte of the requests that succeeded. */
  ttft: Histogram;
}

/** An empty tally (allocated once per bucket of a ring, then reused by {@link resetMinuteTally}). */
export function createMinuteTally(): MinuteTally {
  return { minute: -1, requests: 0, errors: 0, tokens: 0, spendUsd: 0, latency: createHistogram(), ttft: createHistogram() };
}

/** Empties `tally` in place and marks it as counting `minute`. */
export function resetMinuteTally(tally: MinuteTally, minute: number): void {
  tally.minute = minute;
  tally.requests = 0;
  tally.errors = 0;
  tally.tokens = 0;
  tally.spendUsd = 0;
  resetHistogram(tally.latency);
  resetHistogram(tally.ttft);
}

/** Counts `row` in `tally`: O(1), no allocation. */
export function addToMinuteTally(tally: MinuteTally, row: UsageRow): void {
  tally.requests += 1;
  if (row.status >= 400) tally.errors += 1;
  tally.tokens += row.inputTokens + row.outputTokens;
  tally.spendUsd += row.costUsd ?? 0;
  addToHistogram(tally.latency, row.durationMs);
  if (row.ttfbMs !== undefined && row.status < 400) addToHistogram(tally.ttft, row.ttfbMs);
}

/** Adds `from` into `into` (the minute of `into` is left as it is). */
export function mergeMinuteTally(into: MinuteTally, from: MinuteTally): void {
  into.requests += from.requests;
  into.errors += from.errors;
  into.tokens += from.tokens;
  into.spendUsd += from.spendUsd;
  mergeHistogram(into.latency, from.latency);
  mergeHistogram(into.ttft, from.ttft);
}
