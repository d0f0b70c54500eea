import { inflateRawSync } from 'node:zlib';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsageFeed } from '../../src/console/create-usage-feed.ts';
import { describeInstance, PUBLISHED_ROWS, UNKNOWN_MODEL } from '../../src/console/describe-instance.ts';
import { publishInstance } from '../../src/console/publish-instance.ts';
import { readInstanceDetail } from '../../src/console/read-instance-detail.ts';
import { readInstances } from '../../src/console/read-instances.ts';
import { createRedisStore } from '../../src/limits/redis-store.ts';
import type { LimitStore, ValueStore } from '../../src/limits/store.ts';
import { startTestRedis, type TestRedis } from '../limits/redis-server.ts';

/** Instances sharing a real Redis publish their last hour in full; each console lists them all, labelled, and reads any of them. */
let redis: TestRedis;
let store: LimitStore;
/** A second connection, as another machine's. */
let otherStore: LimitStore;
let values: ValueStore;
const logger = pino({ level: 'silent' });
const KNOWN = new Set(['a', 'b', 'c']);
const isKnown = (name: string) => KNOWN.has(name);

beforeAll(async () => {
  redis = await startTestRedis();
  store = await createRedisStore({ url: redis.url, failOpen: true, log: logger });
  otherStore = await createRedisStore({ url: redis.url, failOpen: true, log: logger });
  values = store.values!;
});
afterAll(async () => {
  await store?.close();
  await otherStore?.close();
  await redis?.stop();
});

const row = (model: string | undefined, style = 'openai', key = 'team') => ({ time: Date.now(), key, style: style as 'openai', model, status: 200, inputTokens: 1, outputTokens: 2, durationMs: 30, pid: 1 });

describe('publishInstance, readInstances and readInstanceDetail', () => {
  it('lists every instance publishing to the store, marking this one, and reads another one per style, per model and its latest rows', async () => {
    const feeds = [createUsageFeed(), createUsageFeed()];
    feeds[0].add(row('a'));
    for (let i = 0; i < 3; i++) feeds[1].add(row('b', 'anthropic'));
    feeds[1].add(row('c', 'google', 'other'));
    const running = [publishInstance(values, feeds[0], logger, isKnown, 'host-a/1'), publishInstance(otherStore.values!, feeds[1], logger, isKnown, 'host-b/2')];
    // Registration is race-free: both are listed after their first publish, not the next one (5 s later).
    await expect.poll(async () => (await readInstances(values, 'host-a/1')).map((i) => [i.id, i.self, i.summary.requests]), { timeout: 2000, interval: 50 })
      .toEqual([['host-a/1', true, 1], ['host-b/2', false, 4]]);
    const other = (await readInstanceDetail(values, 'host-b/2'))!;
    expect(other.total.summary.requests).toBe(4);
    expect(Object.fromEntries(Object.entries(other.byStyle).map(([name, group]) => [name, group.summary.requests]))).toEqual({ anthropic: 3, google: 1 });
    expect(Object.fromEntries(Object.entries(other.byModel).map(([name, group]) => [name, group.summary.requests]))).toEqual({ b: 3, c: 1 });
    expect(Math.round(other.byModel.b.series.requestsPerSecond.at(-1)! * 60)).toBe(3);
    expect(other.recent.map((r) => [r.key, r.style, r.model])).toEqual([['team', 'anthropic', 'b'], ['team', 'anthropic', 'b'], ['team', 'anthropic', 'b'], ['other', 'google', 'c']]);
    expect(await readInstanceDetail(values, 'host-c/3')).toBeUndefined();
    for (const instance of running) instance.stop();
  });

  it(`publishes models gateway.yaml does not name as "${UNKNOWN_MODEL}" (one group), and only the latest ${PUBLISHED_ROWS} rows`, () => {
    const feed = createUsageFeed();
    for (let i = 0; i < 30; i++) feed.add(row(i % 2 ? 'a' : `<b>client text ${i}</b>`));
    feed.add(row(undefined));
    const { total, detail } = describeInstance('h/1', feed, isKnown, Date.now());
    const published = JSON.parse(inflateRawSync(Buffer.from(detail, 'base64')).toString('utf8'));
    expect(Object.fromEntries(Object.entries<any>(published.byModel).map(([name, group]) => [name, group.summary.requests]))).toEqual({ '(none)': 1, a: 15, [UNKNOWN_MODEL]: 15 });
    expect(published.recent).toHaveLength(PUBLISHED_ROWS);
    expect(new Set(published.recent.map((r: any) => r.model))).toEqual(new Set(['a', UNKNOWN_MODEL, undefined]));
    expect(total + JSON.stringify(published)).not.toContain('client text');
  });

  it('writes a few kilobytes per publish with 20 models busy every minute of the hour', () => {
    const now = Date.now();
    const feed = createUsageFeed(() => now);
    for (let minute = 0; minute < 60; minute++) {
      for (let i = 0; i < 40; i++) feed.add({ ...row(`m${i % 20}`, ['openai', 'anthropic', 'google'][i % 3]), time: now - minute * 60_000 - i * 100, durationMs: 10 + i * 13, ttfbMs: 5 + i, costUsd: 1e-5 * (i + 1) });
    }
    const { total, detail } = describeInstance('h/1', feed, () => true, now);
    expect(Buffer.byteLength(total) + Buffer.byteLength(detail)).toBeLessThan(16_000);
  });

  it('lists none when Redis is down', async () => {
    await redis.stop();
    expect(await readInstances(values, 'x')).toEqual([]);
    await redis.start();
  });
});
