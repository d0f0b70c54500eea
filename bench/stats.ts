/** Summary statistics of a metric's rounds. */

/** The median of some numbers (the mean of the middle two for an even count); NaN for none. */
export function getMedian(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Half the range of some numbers as a fraction of their median (0.05 = ±5%); 0 for fewer than two. */
export function getSpread(values: number[]): number {
  if (values.length < 2) return 0;
  const median = getMedian(values);
  if (median === 0) return 0;
  return (Math.max(...values) - Math.min(...values)) / 2 / Math.abs(median);
}

/** The value at a percentile (0-100) of some numbers, nearest rank; NaN for none. */
export function getPercentile(values: number[], percentile: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((percentile / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}
