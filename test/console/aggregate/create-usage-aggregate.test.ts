import { describe, expect, it } from 'vitest';
import { createUsageAggregate } from '../../../src/console/aggregate/create-usage-aggregate.ts';
import { getBucketBounds, getHistogramBucket } from '../../../src/console/aggregate/histogram.ts';
import { MAX_GROUPS, OTHERS, TRACKED_GROUPS } from '../../../src/console/aggregate/read-group-set.ts';
import type { UsageRow } from '../../../src/console/types.ts';

/** The last hour counted as rows arrive: per minute, per style, per model (bounded) and per key. */
const NOW = 1_800_000_000_000; // a minute's start
const row = (time: number, extra: Partial<UsageRow> = {}): UsageRow => ({
  time, key: 'team', style: 'openai', model: 'm', status: 200, inputTokens: 10, outputTokens: 20, durationMs: 100, ttfbMs: 50, pid: 1, ...extra,
});
const minutesAgo = (minutes: number) => NOW - minutes * 60_000;

/** An aggregate whose clock the test sets. */
function startAggregate() {
  const clock = { now: NOW };
  return { clock, aggregate: createUsageAggregate(() => clock.now) };
}

function expectWithinBucket(read: number, exact: number): void {
  const [low, high] = getBucketBounds(getHistogramBucket(exact));
  expect(read).toBeGreaterThanOrEqual(low);
  expect(read).toBeLessThan(high);
}

describe('createUsageAggregate', () => {
  it('gives the last hour per style and per model: percentiles (to a bucket), error rate, spend, each group minute by minute', () => {
    const { aggregate } = startAggregate();
    aggregate.record(row(minutesAgo(90))); // older than an hour: left out
    aggregate.record(row(minutesAgo(30), { durationMs: 100, costUsd: 0.5 }));
    aggregate.record(row(minutesAgo(0.5), { durationMs: 300, style: 'anthropic', model: 'n', status: 429, ttfbMs: undefined }));
    aggregate.record(row(minutesAgo(0.2), { durationMs: 200, costUsd: 0.25 }));
    const overview = aggregate.readOverview();
    expect(overview.total.summary).toMatchObject({ requests: 3, p50TtftMs: 50, spendUsd: 0.75, tokensPerMinute: 1.5 });
    // Exact: 200 and 300 (nearest rank); read from the histogram: within the bucket of each.
    expectWithinBucket(overview.total.summary.p50LatencyMs, 200);
    expectWithinBucket(overview.total.summary.p95LatencyMs, 300);
    expect(overview.total.summary.errorRate).toBeCloseTo(1 / 3);
    expect(overview.total.summary.requestsPerSecond).toBeCloseTo(2 / 60);
    expect(Object.keys(overview.byStyle)).toEqual(['anthropic', 'openai']);
    expect(overview.byModel.n.summary).toMatchObject({ requests: 1, errorRate: 1, p50LatencyMs: 300 });
    const perMinute = overview.total.series.requestsPerSecond.map((perSecond) => Math.round(perSecond * 60));
    expect(perMinute).toHaveLength(60);
    expect(perMinute[58]).toBe(2); // the minute before NOW's
    expect(perMinute[29]).toBe(1);
    expect(overview.total.series.spendUsd[29]).toBe(0.5);
  });

  it('counts an hour of minutes, one slot per minute, and forgets each minute an hour later (the slot reused)', () => {
    const { clock, aggregate } = startAggregate();
    for (let minute = 0; minute < 60; minute++) {
      clock.now = NOW + minute * 60_000 + 1000;
      aggregate.record(row(clock.now, { durationMs: minute + 1, costUsd: 1 }));
    }
    let overview = aggregate.readOverview();
    expect(overview.total.summary).toMatchObject({ requests: 60, spendUsd: 60 });
    expect(overview.total.series.requestsPerSecond.every((perSecond) => Math.round(perSecond * 60) === 1)).toBe(true);
    expect(overview.total.series.p50LatencyMs[0]).toBe(1);
    expect(overview.total.series.p50LatencyMs[59]).toBe(60);
    // Half an hour on, a request: the slots of the first 30 minutes were emptied and count only it.
    clock.now += 30 * 60_000;
    aggregate.record(row(clock.now, { durationMs: 7 }));
    overview = aggregate.readOverview();
    expect(overview.total.summary.requests).toBe(31);
    expect(overview.total.series.p50LatencyMs.at(-1)).toBe(7);
    expect(overview.total.series.requestsPerSecond.slice(0, 30).map((perSecond) => Math.round(perSecond * 60))).toEqual(Array(30).fill(1));
    expect(overview.total.series.requestsPerSecond.slice(30, 59).every((perSecond) => perSecond === 0)).toBe(true);
    // Another hour with nothing: all gone, every group let go.
    clock.now += 61 * 60_000;
    expect(aggregate.readOverview()).toMatchObject({ total: { summary: { requests: 0, p50LatencyMs: 0 } }, byModel: {}, byStyle: {} });
  });

  it('counts a row stamped ahead of this clock (another process) now, and drops a row older than the minute its slot holds', () => {
    const { aggregate } = startAggregate();
    aggregate.record(row(NOW + 5 * 60_000));
    aggregate.record(row(minutesAgo(60.5))); // same slot as NOW's minute would be an hour ago: out of the hour
    const { series, summary } = aggregate.readTotal();
    expect(summary.requests).toBe(1);
    expect(series.requestsPerSecond.at(-1)).toBeCloseTo(1 / 60);
  });

  it(`keeps at most ${MAX_GROUPS} models: the busiest ${MAX_GROUPS - 1} apart, the rest summed as ${OTHERS}`, () => {
    const { aggregate } = startAggregate();
    for (let i = 0; i < 25; i++) for (let n = 0; n <= i; n++) aggregate.record(row(minutesAgo(1), { model: `model-${String(i).padStart(2, '0')}` }));
    const { byModel, total } = aggregate.readOverview();
    expect(Object.keys(byModel)).toHaveLength(MAX_GROUPS);
    expect(byModel[OTHERS].summary.requests).toBe(1 + 2 + 3 + 4 + 5 + 6);
    expect(byModel['model-06'].summary.requests).toBe(7);
    expect(Object.values(byModel).reduce((sum, group) => sum + group.summary.requests, 0)).toBe(total.summary.requests);
  });

  it(`sums a model a client named ${OTHERS} with the others, in one group`, () => {
    const { aggregate } = startAggregate();
    for (let i = 0; i < 25; i++) aggregate.record(row(NOW, { model: i === 0 ? OTHERS : `model-${i}` }));
    const { byModel } = aggregate.readOverview();
    expect(Object.keys(byModel)).toHaveLength(MAX_GROUPS);
    expect(Object.values(byModel).reduce((sum, group) => sum + group.summary.requests, 0)).toBe(25);
  });

  it(`counts every model past the ${TRACKED_GROUPS} tracked in ${OTHERS}, and lets an idle group go after an hour, so a new model gets its own`, () => {
    const { clock, aggregate } = startAggregate();
    for (let i = 0; i < TRACKED_GROUPS + 5; i++) aggregate.record(row(NOW, { model: `old-${String(i).padStart(2, '0')}`, durationMs: i }));
    const { byModel } = aggregate.readOverview();
    expect(byModel[OTHERS].summary.requests).toBe(TRACKED_GROUPS + 5 - (MAX_GROUPS - 1));
    expect(Object.keys(byModel)).toHaveLength(MAX_GROUPS);
    for (let i = 0; i < 30; i++) aggregate.record(row(NOW, { model: `old-${i}` }));
    clock.now += 61 * 60_000;
    aggregate.record(row(clock.now, { model: 'fresh' }));
    expect(Object.keys(aggregate.readOverview().byModel)).toEqual(['fresh']);
  });

  it("gives a key's requests and tokens of the last 60 seconds and its spend of the hour", () => {
    const { clock, aggregate } = startAggregate();
    clock.now = NOW + 30_000;
    aggregate.record(row(minutesAgo(5), { costUsd: 1 }));
    aggregate.record(row(NOW + 10_000, { costUsd: 0.5 }));
    aggregate.record(row(NOW + 20_000, { key: 'other' }));
    aggregate.record(row(NOW + 20_000, { key: undefined }));
    expect(aggregate.readKeyUsage('team')).toEqual({ requestsLastMinute: 1, tokensLastMinute: 30, spendLastHourUsd: 1.5 });
    expect(aggregate.readKeyUsage('other').requestsLastMinute).toBe(1);
    expect(aggregate.readKeyUsage('nobody')).toEqual({ requestsLastMinute: 0, tokensLastMinute: 0, spendLastHourUsd: 0 });
    // 60 seconds after the second row, it is out of the last minute; its spend stays for the hour.
    expect(aggregate.readKeyUsage('team', NOW + 70_000)).toEqual({ requestsLastMinute: 0, tokensLastMinute: 0, spendLastHourUsd: 1.5 });
    expect(aggregate.readKeyUsage('team', NOW + 70 * 60_000).spendLastHourUsd).toBe(0);
  });

  it('counts the models a rename shows alike as one group, its percentiles read from their histograms together', () => {
    const { aggregate } = startAggregate();
    for (let i = 0; i < 9; i++) aggregate.record(row(NOW, { model: 'x', durationMs: 10 }));
    aggregate.record(row(NOW, { model: 'y', durationMs: 1000, status: 500 }));
    aggregate.record(row(NOW, { model: 'kept', durationMs: 50 }));
    const { byModel } = aggregate.readOverview(NOW, (name) => (name === 'kept' ? name : 'renamed'));
    expect(Object.keys(byModel)).toEqual(['kept', 'renamed']);
    expect(byModel.renamed.summary).toMatchObject({ requests: 10, errorRate: 0.1 });
    expectWithinBucket(byModel.renamed.summary.p50LatencyMs, 10);
    expectWithinBucket(byModel.renamed.summary.p95LatencyMs, 1000);
    expect(byModel.kept.summary.requests).toBe(1);
  });
});
