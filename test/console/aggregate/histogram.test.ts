import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addToHistogram, createHistogram, getBucketBounds, getHistogramBucket, HISTOGRAM_BUCKETS, mergeHistogram, readHistogramPercentile } from '../../../src/console/aggregate/histogram.ts';

/** Percentiles read from the log-spaced histogram: within one bucket's width of the exact nearest-rank value. */
function exactPercentile(values: number[], share: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
}

/** The width of the bucket holding `exact` (the open last bucket: up to the largest value). */
function bucketWidth(exact: number, largest: number): number {
  const [low, high] = getBucketBounds(getHistogramBucket(exact));
  return Math.min(high, largest) - low;
}

const durations = fc.array(fc.oneof(fc.double({ min: 0, max: 600_000, noNaN: true }), fc.nat(5_000), fc.constant(0)), { minLength: 1, maxLength: 400 });

describe('readHistogramPercentile', () => {
  it('gives p50 and p95 within a bucket width of the exact nearest-rank value, for any durations', () => {
    fc.assert(
      fc.property(durations, fc.constantFrom(0.5, 0.95, 0, 1), (values, share) => {
        const histogram = createHistogram();
        for (const value of values) addToHistogram(histogram, value);
        const exact = exactPercentile(values, share);
        const read = readHistogramPercentile(histogram, share);
        expect(Math.abs(read - exact)).toBeLessThanOrEqual(bucketWidth(exact, Math.max(...values)));
        expect(read).toBeGreaterThanOrEqual(Math.min(...values));
        expect(read).toBeLessThanOrEqual(Math.max(...values));
      }),
      { numRuns: 300 },
    );
  });

  it('is exact when every value is the same, and 0 with no value', () => {
    const histogram = createHistogram();
    expect(readHistogramPercentile(histogram, 0.5)).toBe(0);
    for (let i = 0; i < 10; i++) addToHistogram(histogram, 137);
    expect(readHistogramPercentile(histogram, 0.95)).toBe(137);
  });

  it('merges histograms as if the values were counted in one', () => {
    const [a, b, both] = [createHistogram(), createHistogram(), createHistogram()];
    for (const value of [3, 40, 500]) addToHistogram(a, value), addToHistogram(both, value);
    for (const value of [7, 7000]) addToHistogram(b, value), addToHistogram(both, value);
    mergeHistogram(a, b);
    expect(a).toEqual(both);
  });

  it('puts anything that is not a duration (NaN, negative, infinite) in a bucket without throwing', () => {
    const histogram = createHistogram();
    for (const value of [Number.NaN, -5, Infinity, 1e12]) addToHistogram(histogram, value);
    expect(histogram.count).toBe(4);
    expect(histogram.counts[HISTOGRAM_BUCKETS - 1]).toBe(1);
    expect(Number.isFinite(readHistogramPercentile(histogram, 0.95))).toBe(true);
  });
});

describe('getBucketBounds', () => {
  it('tiles 0 to infinity: each bucket starts where the one before ends and holds the values it names', () => {
    for (let i = 1; i < HISTOGRAM_BUCKETS; i++) expect(getBucketBounds(i)[0]).toBe(getBucketBounds(i - 1)[1]);
    // A bound itself falls in the bucket it starts (log2 alone is not exact there).
    for (let i = 0; i < HISTOGRAM_BUCKETS; i++) expect(getHistogramBucket(getBucketBounds(i)[0])).toBe(i);
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e9, noNaN: true }), (value) => {
        const [low, high] = getBucketBounds(getHistogramBucket(value));
        expect(value >= low && value < high).toBe(true);
      }),
    );
  });
});
