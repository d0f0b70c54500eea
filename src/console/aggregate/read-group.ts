import { RING_MINUTES, type GroupTally } from './group-tally.ts';
import { readHistogramPercentile } from './histogram.ts';
import { createMinuteTally, mergeMinuteTally, resetMinuteTally, type MinuteTally } from './minute-tally.ts';
import { sumSecondRing } from './second-ring.ts';
import { SERIES_METRICS, SERIES_MINUTES, type UsageGroup, type UsageSeries } from './usage-group.ts';

/** Four significant digits: enough for a chart, and the overview's JSON stays small. */
const round = (value: number) => Number(value.toPrecision(4));

function pushMinute(series: UsageSeries, tally: MinuteTally): void {
  series.requestsPerSecond.push(round(tally.requests / 60));
  series.errorRate.push(round(tally.requests ? tally.errors / tally.requests : 0));
  series.p50LatencyMs.push(round(readHistogramPercentile(tally.latency, 0.5)));
  series.p95LatencyMs.push(round(readHistogramPercentile(tally.latency, 0.95)));
  series.p50TtftMs.push(round(readHistogramPercentile(tally.ttft, 0.5)));
  series.tokensPerMinute.push(round(tally.tokens));
  series.spendUsd.push(round(tally.spendUsd));
}

/**
 * The overview's numbers and per-minute series of `groups` counted as one (a group, or `(others)` with the
 * groups folded into it) over the hour ending at `now`: O(60 x groups x histogram buckets), whatever the
 * request rate. A minute with no request is 0.
 */
export function readGroup(groups: readonly GroupTally[], now: number): UsageGroup {
  const nowMinute = Math.floor(now / 60_000);
  const hour = createMinuteTally();
  const minute = createMinuteTally();
  const series = Object.fromEntries(SERIES_METRICS.map((metric) => [metric, [] as number[]])) as UsageSeries;
  for (let m = nowMinute - SERIES_MINUTES + 1; m <= nowMinute; m++) {
    resetMinuteTally(minute, m);
    for (const group of groups) {
      const tally = group.minutes[m % RING_MINUTES];
      if (tally.minute === m) mergeMinuteTally(minute, tally);
    }
    pushMinute(series, minute);
    mergeMinuteTally(hour, minute);
  }
  const nowSecond = Math.floor(now / 1000);
  const lastMinute = groups.reduce((sum, group) => sum + sumSecondRing(group.seconds, nowSecond, 'requests'), 0);
  return {
    summary: {
      requests: hour.requests,
      requestsPerSecond: lastMinute / 60,
      errorRate: hour.requests ? hour.errors / hour.requests : 0,
      p50LatencyMs: readHistogramPercentile(hour.latency, 0.5),
      p95LatencyMs: readHistogramPercentile(hour.latency, 0.95),
      p50TtftMs: readHistogramPercentile(hour.ttft, 0.5),
      tokensPerMinute: hour.tokens / 60,
      spendUsd: hour.spendUsd,
    },
    series,
  };
}
