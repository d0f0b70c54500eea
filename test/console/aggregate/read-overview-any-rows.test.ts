import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createUsageAggregate } from '../../../src/console/aggregate/create-usage-aggregate.ts';
import { getBucketBounds, getHistogramBucket } from '../../../src/console/aggregate/histogram.ts';
import { MAX_GROUPS, OTHERS } from '../../../src/console/aggregate/read-group-set.ts';
import { SERIES_METRICS } from '../../../src/console/aggregate/usage-group.ts';
import type { UsageRow } from '../../../src/console/types.ts';

/** The overview over any rows, in any order: bounded, finite, every request of the hour counted, percentiles to a bucket. */
const NOW = 1_800_000_000_000 + 25_000;

const rowArbitrary = fc.record({
  minutesAgo: fc.double({ min: -1, max: 120, noNaN: true }),
  model: fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
  style: fc.constantFrom('openai', 'anthropic', 'gemini'),
  status: fc.constantFrom(200, 400, 429, 500),
  durationMs: fc.oneof(fc.nat(100_000), fc.double({ min: 0, max: 5000, noNaN: true })),
  inputTokens: fc.nat(10_000),
});

function exactPercentile(values: number[], share: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] : 0;
}

describe('readOverview over any rows', () => {
  it('keeps at most MAX_GROUPS models, 60 finite values per metric, every request of the hour, and p50/p95 within a bucket', () => {
    fc.assert(
      fc.property(fc.array(rowArbitrary, { maxLength: 300 }), fc.boolean(), (drawn, manyModels) => {
        const aggregate = createUsageAggregate(() => NOW);
        const rows: UsageRow[] = drawn.map((r, i) => ({
          time: NOW - r.minutesAgo * 60_000, style: r.style as UsageRow['style'], model: manyModels ? `model-${i}` : r.model, status: r.status,
          inputTokens: r.inputTokens, outputTokens: 0, durationMs: r.durationMs, pid: 1,
        }));
        for (const row of rows) aggregate.record(row);
        const overview = aggregate.readOverview();
        // The hour: the 60 clock minutes ending with NOW's; a row stamped ahead counts now.
        const inHour = rows.filter((row) => Math.floor(Math.min(row.time, NOW) / 60_000) > Math.floor(NOW / 60_000) - 60);
        const groups = Object.values(overview.byModel);
        expect(groups.length).toBeLessThanOrEqual(MAX_GROUPS);
        if (new Set(inHour.map((row) => row.model)).size > MAX_GROUPS) expect(overview.byModel[OTHERS]).toBeDefined();
        expect(overview.total.summary.requests).toBe(inHour.length);
        expect(groups.reduce((sum, group) => sum + group.summary.requests, 0)).toBe(inHour.length);
        expect(Object.values(overview.byStyle).reduce((sum, group) => sum + group.summary.requests, 0)).toBe(inHour.length);
        for (const group of [overview.total, ...groups, ...Object.values(overview.byStyle)]) {
          for (const metric of SERIES_METRICS) {
            expect(group.series[metric]).toHaveLength(60);
            expect(group.series[metric].every(Number.isFinite)).toBe(true);
          }
        }
        expect(Math.round(overview.total.series.requestsPerSecond.reduce((a, b) => a + b, 0) * 60)).toBe(inHour.length);
        for (const [share, read] of [[0.5, overview.total.summary.p50LatencyMs], [0.95, overview.total.summary.p95LatencyMs]] as const) {
          const exact = exactPercentile(inHour.map((row) => row.durationMs), share);
          const [low, high] = getBucketBounds(getHistogramBucket(exact));
          expect(inHour.length === 0 ? read === 0 : read >= low && read < high).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });
});
