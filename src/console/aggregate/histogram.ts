/**
 * Buckets per doubling: each bucket past the first spans a factor of 2^(1/4) (about 19 %), so a percentile
 * read from the histogram is within one bucket's width of the exact one.
 */
const STEPS = 4;
/** Bucket 0 is [0, 1) ms; the last one is open-ended from 2^24 ms (4.7 hours). */
export const HISTOGRAM_BUCKETS = STEPS * 24 + 2;

/** Durations in log-spaced buckets, with the count, the smallest and the largest value seen. */
export interface Histogram {
  counts: Uint32Array;
  count: number;
  min: number;
  max: number;
}

/** An empty histogram (allocated once; reused through {@link resetHistogram}). */
export function createHistogram(): Histogram {
  return { counts: new Uint32Array(HISTOGRAM_BUCKETS), count: 0, min: Infinity, max: -Infinity };
}

/** Empties `histogram` in place. */
export function resetHistogram(histogram: Histogram): void {
  histogram.counts.fill(0);
  histogram.count = 0;
  histogram.min = Infinity;
  histogram.max = -Infinity;
}

/** Each bucket's low bound: bucket 0 from 0, bucket i from 2^((i - 1) / STEPS). */
const LOWS = Float64Array.from({ length: HISTOGRAM_BUCKETS }, (_, i) => (i === 0 ? 0 : 2 ** ((i - 1) / STEPS)));

/** The bucket of `value` (milliseconds; anything not a number of 1 or more goes in bucket 0). */
export function getHistogramBucket(value: number): number {
  if (!(value >= 1)) return 0;
  let index = Math.min(HISTOGRAM_BUCKETS - 1, Math.floor(STEPS * Math.log2(value)) + 1);
  // log2 is not exact at the bounds: the table decides.
  if (value < LOWS[index]) index -= 1;
  else if (index < HISTOGRAM_BUCKETS - 1 && value >= LOWS[index + 1]) index += 1;
  return index;
}

/** The bounds `[low, high)` of bucket `index` (the last one's high is Infinity). */
export function getBucketBounds(index: number): [number, number] {
  return [LOWS[index], index === HISTOGRAM_BUCKETS - 1 ? Infinity : LOWS[index + 1]];
}

/** Counts `value` in `histogram`: O(1), no allocation. */
export function addToHistogram(histogram: Histogram, value: number): void {
  const safe = value >= 0 && value < Infinity ? value : 0;
  histogram.counts[getHistogramBucket(safe)] += 1;
  histogram.count += 1;
  if (safe < histogram.min) histogram.min = safe;
  if (safe > histogram.max) histogram.max = safe;
}

/** Adds the counts of `from` into `into`. */
export function mergeHistogram(into: Histogram, from: Histogram): void {
  if (from.count === 0) return;
  for (let i = 0; i < HISTOGRAM_BUCKETS; i++) into.counts[i] += from.counts[i];
  into.count += from.count;
  if (from.min < into.min) into.min = from.min;
  if (from.max > into.max) into.max = from.max;
}

/**
 * The value at `share` (0 to 1) of the values counted (nearest rank, 0 when there is none), read from the
 * buckets: the geometric middle of the bucket holding that rank, kept within the smallest and largest value
 * seen, so within that bucket's width of the exact value (and exact when all values are equal).
 */
export function readHistogramPercentile(histogram: Histogram, share: number): number {
  if (histogram.count === 0) return 0;
  const rank = Math.min(histogram.count - 1, Math.floor(share * histogram.count));
  let seen = 0;
  let index = 0;
  while (index < HISTOGRAM_BUCKETS - 1 && seen + histogram.counts[index] <= rank) seen += histogram.counts[index++];
  const middle = index === 0 ? 0.5 : 2 ** ((index - 0.5) / STEPS);
  return Math.min(histogram.max, Math.max(histogram.min, middle));
}
