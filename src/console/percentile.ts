/** The value at `share` (0 to 1) of `values` (nearest rank, 0 when there is none): the overview's p50 and p95. */
export function percentile(values: readonly number[], share: number): number {
  if (values.length === 0) return 0;
  // A typed array sorts numerically, without a comparison callback per step.
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
}
