import { describe, expect, it } from 'vitest';
import { sumKeyUsage } from '../../src/console/describe-keys.ts';
import { createUsageFeed } from '../../src/console/create-usage-feed.ts';
import { summarizeUsage } from '../../src/console/summarize-usage.ts';
import type { UsageRow } from '../../src/console/types.ts';

/** The overview's numbers and the keys' live usage, from usage rows. */
const NOW = 1_800_000_000_000;
const row = (minutesAgo: number, extra: Partial<UsageRow> = {}): UsageRow => ({
  time: NOW - minutesAgo * 60_000, key: 'team', style: 'openai', model: 'm', status: 200, inputTokens: 10, outputTokens: 20, durationMs: 100, ttfbMs: 50, pid: 1, ...extra,
});

describe('summarizeUsage', () => {
  it('gives the last hour per style and per model, percentiles, error rate, spend and each group minute by minute', () => {
    const rows = [
      row(90), // older than an hour: left out
      row(30, { durationMs: 100, costUsd: 0.5 }),
      row(0.5, { durationMs: 300, style: 'anthropic', model: 'n', status: 429, ttfbMs: undefined }),
      row(0.2, { durationMs: 200, costUsd: 0.25 }),
    ];
    const summary = summarizeUsage(rows, NOW);
    expect(summary.total.summary).toMatchObject({ requests: 3, p50LatencyMs: 200, p95LatencyMs: 300, p50TtftMs: 50, spendUsd: 0.75, tokensPerMinute: 1.5 });
    expect(summary.total.summary.errorRate).toBeCloseTo(1 / 3);
    expect(summary.total.summary.requestsPerSecond).toBeCloseTo(2 / 60);
    expect(Object.keys(summary.byStyle)).toEqual(['anthropic', 'openai']);
    expect(summary.byModel.n.summary).toMatchObject({ requests: 1, errorRate: 1 });
    const perMinute = summary.total.series.requestsPerSecond.map((perSecond) => Math.round(perSecond * 60));
    expect(perMinute).toHaveLength(60);
    expect(perMinute[59]).toBe(2);
    expect(perMinute[29]).toBe(1);
  });
});

describe('sumKeyUsage', () => {
  it('counts the last minute requests and tokens, and the spend of every row kept', () => {
    const usage = sumKeyUsage([row(5, { costUsd: 1 }), row(0.5, { costUsd: 0.5 }), row(0.1, { key: 'other' }), row(0.1, { key: undefined })], NOW);
    expect(usage.get('team')).toEqual({ requestsLastMinute: 1, tokensLastMinute: 30, spendLastHourUsd: 1.5 });
    expect(usage.get('other')?.requestsLastMinute).toBe(1);
    expect(usage.size).toBe(2);
  });
});

describe('createUsageFeed', () => {
  it('hands rows to followers until they stop, and keeps no body or request id', () => {
    const feed = createUsageFeed();
    const seen: UsageRow[] = [];
    const stop = feed.follow((r) => seen.push(r));
    const record = feed.record; // the gateway calls it detached
    record({ requestId: 'req_1', key: 'team', style: 'openai', status: 200, durationMs: 5, vendorCalls: 1, usage: { inputTokens: 3 }, method: 'POST', path: '/v1/chat/completions', client: '10.0.0.1', pid: 7, attempts: 1, overheadMs: 1, generation: 1 });
    stop();
    feed.add(row(0, { time: Date.now() }));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ key: 'team', inputTokens: 3, outputTokens: 0, pid: 7 });
    expect(JSON.stringify(seen[0])).not.toMatch(/req_1|10\.0\.0\.1|chat\/completions/);
    expect(feed.listRows()).toHaveLength(2);
  });
});
