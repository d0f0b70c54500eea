import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERIES_METRICS, summarizeMinutes } from '../../src/console/summarize-minutes.ts';
import { MAX_GROUPS, OTHERS, summarizeUsage } from '../../src/console/summarize-usage.ts';
import type { UsageRow } from '../../src/console/types.ts';

/** The overview's chart data: each metric per minute of the last hour, per group, bounded whatever the rows. */
const NOW = 1_800_000_000_000;
const row = (minutesAgo: number, extra: Partial<UsageRow> = {}): UsageRow => ({
  time: NOW - minutesAgo * 60_000, style: 'openai', model: 'm', status: 200, inputTokens: 10, outputTokens: 20, durationMs: 100, ttfbMs: 50, pid: 1, ...extra,
});

describe('summarizeMinutes', () => {
  it('puts each row in its minute, oldest first, and gives every metric of that minute', () => {
    const series = summarizeMinutes([
      row(0.1, { durationMs: 100, costUsd: 0.5 }),
      row(0.3, { durationMs: 300, status: 500, ttfbMs: undefined }),
      row(10.5, { durationMs: 40, ttfbMs: 7, inputTokens: 1, outputTokens: 2 }),
      row(61), // older than the hour: in no minute
      row(-0.2), // a little ahead (another clock): the last minute
    ], NOW);
    for (const metric of SERIES_METRICS) expect(series[metric]).toHaveLength(60);
    expect(series.requestsPerSecond[59]).toBeCloseTo(3 / 60);
    expect(series.errorRate[59]).toBeCloseTo(1 / 3);
    expect(series.p95LatencyMs[59]).toBe(300);
    expect(series.p50TtftMs[59]).toBe(50);
    expect(series.tokensPerMinute[59]).toBe(90);
    expect(series.spendUsd[59]).toBe(0.5);
    expect(series.p50LatencyMs[49]).toBe(40);
    expect(series.p50TtftMs[49]).toBe(7);
    expect(series.tokensPerMinute[49]).toBe(3);
    expect(series.requestsPerSecond.reduce((a, b) => a + b, 0) * 60).toBeCloseTo(4);
    expect(series.p50LatencyMs[0]).toBe(0);
  });
});

const rowArbitrary = fc.record({
  minutesAgo: fc.double({ min: -1, max: 120, noNaN: true }),
  model: fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
  status: fc.constantFrom(200, 400, 429, 500),
  durationMs: fc.nat(100_000),
  inputTokens: fc.nat(10_000),
});

describe('summarizeUsage over any rows', () => {
  it('keeps at most MAX_GROUPS models, 60 finite values per metric, and the requests of the hour in the minutes', () => {
    fc.assert(
      fc.property(fc.array(rowArbitrary, { maxLength: 300 }), fc.boolean(), (drawn, manyModels) => {
        const rows = drawn.map((r, i) => row(r.minutesAgo, { ...r, model: manyModels ? `model-${i}` : r.model }));
        const overview = summarizeUsage(rows, NOW);
        const groups = Object.values(overview.byModel);
        expect(groups.length).toBeLessThanOrEqual(MAX_GROUPS);
        if (manyModels && rows.filter((r) => r.time >= NOW - 3_600_000).length > MAX_GROUPS) expect(overview.byModel[OTHERS]).toBeDefined();
        const inHour = rows.filter((r) => r.time > NOW - 3_600_000).length;
        expect(groups.reduce((sum, group) => sum + group.summary.requests, 0)).toBe(overview.total.summary.requests);
        for (const group of [overview.total, ...groups, ...Object.values(overview.byStyle)]) {
          for (const metric of SERIES_METRICS) {
            expect(group.series[metric]).toHaveLength(60);
            expect(group.series[metric].every(Number.isFinite)).toBe(true);
          }
        }
        expect(Math.round(overview.total.series.requestsPerSecond.reduce((a, b) => a + b, 0) * 60)).toBe(inHour);
      }),
      { numRuns: 40 },
    );
  });
});
