import { describe, expect, it } from 'vitest';
import { createUsageFeed } from '../../src/console/create-usage-feed.ts';
import { RECENT_ROWS } from '../../src/console/recent-rows.ts';
import type { UsageRow } from '../../src/console/types.ts';
import type { UsageEvent } from '../../src/runtime/types.ts';

/** The feed: each event counted in the aggregate, the latest rows kept for the tail's backlog, followers served live. */
const NOW = 1_800_000_000_000;
const event = (extra: Partial<UsageEvent> = {}): UsageEvent => ({
  requestId: 'req_1', key: 'team', style: 'openai', status: 200, durationMs: 5, vendorCalls: 1, usage: { inputTokens: 3 }, method: 'POST', path: '/v1/chat/completions', client: '10.0.0.1', pid: 7, attempts: 1, overheadMs: 1, generation: 1, ...extra,
});

describe('createUsageFeed', () => {
  it('hands rows to followers until they stop, and keeps no body, client address or request id', () => {
    const feed = createUsageFeed(() => NOW);
    const seen: string[] = [];
    const stop = feed.follow((row) => seen.push(JSON.stringify(row)));
    const record = feed.record; // the gateway calls it detached
    record(event());
    stop();
    feed.add({ time: NOW, style: 'anthropic', status: 200, inputTokens: 1, outputTokens: 2, durationMs: 9, pid: 8 });
    expect(seen).toHaveLength(1);
    expect(JSON.parse(seen[0])).toEqual({ time: NOW, key: 'team', style: 'openai', status: 200, inputTokens: 3, outputTokens: 0, durationMs: 5, pid: 7 });
    expect(seen[0]).not.toMatch(/req_1|10\.0\.0\.1|chat\/completions/);
    expect(feed.listRecent().map((row) => row.pid)).toEqual([7, 8]);
    expect(feed.aggregate.readTotal().summary.requests).toBe(2);
  });

  it(`keeps the latest ${RECENT_ROWS} rows for the tail's backlog, oldest first, while the aggregate counts every event`, () => {
    const feed = createUsageFeed(() => NOW);
    for (let i = 0; i < RECENT_ROWS * 3 + 7; i++) feed.record(event({ durationMs: i, model: `m${i % 3}` }));
    const recent = feed.listRecent();
    expect(recent).toHaveLength(RECENT_ROWS);
    expect(recent.map((row: UsageRow) => row.durationMs)).toEqual(Array.from({ length: RECENT_ROWS }, (_, i) => RECENT_ROWS * 2 + 7 + i));
    // A row reused for a later event carries none of the earlier one's fields.
    feed.record(event({ model: undefined, key: undefined, durationMs: -1 }));
    expect(JSON.stringify(feed.listRecent().at(-1))).not.toMatch(/"model"|"key"/);
    expect(feed.aggregate.readTotal().summary.requests).toBe(RECENT_ROWS * 3 + 8);
    expect(feed.aggregate.readKeyUsage('team').requestsLastMinute).toBe(RECENT_ROWS * 3 + 7);
  });
});
