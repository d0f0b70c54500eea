import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsageFeed } from '../../src/console/create-usage-feed.ts';
import { INSTANCES_KEY, instanceKey } from '../../src/console/instance-index.ts';
import { publishInstance } from '../../src/console/publish-instance.ts';
import { SERIES_METRICS } from '../../src/console/summarize-minutes.ts';
import { readInstances } from '../../src/console/read-instances.ts';
import { createRedisStore } from '../../src/limits/redis-store.ts';
import type { LimitStore, ValueStore } from '../../src/limits/store.ts';
import { startTestRedis, type TestRedis } from '../limits/redis-server.ts';

/** Instances sharing a real Redis publish their last hour; each console lists them all, labelled, and survives junk in the store. */
let redis: TestRedis;
let store: LimitStore;
let values: ValueStore;
const logger = pino({ level: 'silent' });

beforeAll(async () => {
  redis = await startTestRedis();
  store = await createRedisStore({ url: redis.url, failOpen: true, log: logger });
  values = store.values!;
});
afterAll(async () => {
  await store?.close();
  await redis?.stop();
});

const row = (model: string) => ({ time: Date.now(), style: 'openai' as const, model, status: 200, inputTokens: 1, outputTokens: 2, durationMs: 30, pid: 1 });

/** Values shaped like an overview with anything in its fields (a page drawing them must not break). */
const shapedOverview = fc.record({ id: fc.constant('x'), summary: fc.dictionary(fc.constantFrom('requests', 'errorRate', 'p50LatencyMs'), fc.anything()), series: fc.dictionary(fc.constantFrom(...SERIES_METRICS), fc.anything()) }).map((value) => JSON.stringify(value));

describe('publishInstance and readInstances', () => {
  it('lists every instance publishing to the store with its own requests, marking this one', async () => {
    const feeds = [createUsageFeed(), createUsageFeed()];
    feeds[0].add(row('a'));
    for (let i = 0; i < 3; i++) feeds[1].add(row('b'));
    const running = [publishInstance(values, feeds[0], logger, 'host-a/1'), publishInstance(values, feeds[1], logger, 'host-b/2')];
    // Both published at once: one may have lost the index race; the next publish (5 s) brings it back.
    await expect.poll(async () => (await readInstances(values, 'host-a/1')).map((i) => [i.id, i.self, i.summary.requests]), { timeout: 12_000, interval: 250 })
      .toEqual([['host-a/1', true, 1], ['host-b/2', false, 3]]);
    const [, other] = await readInstances(values, 'host-a/1');
    expect(Math.round(other.series.requestsPerSecond.at(-1)! * 60)).toBe(3);
    expect(JSON.stringify(other)).not.toMatch(/"model"/);
    for (const instance of running) instance.stop();
  }, 20_000);

  it('lists only well-formed instances whatever the index and overview values hold, and never throws', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.json(), fc.constant('{"x":1}')), fc.oneof(fc.string(), fc.json(), shapedOverview), async (index, overview) => {
        await values.set([[INSTANCES_KEY, index], [instanceKey('x'), overview]], 5000);
        const listed = await readInstances(values, 'x');
        for (const instance of listed) {
          expect(typeof instance.id).toBe('string');
          expect(Object.values(instance.summary).every(Number.isFinite)).toBe(true);
          for (const metric of SERIES_METRICS) expect(instance.series[metric].length === 60 && instance.series[metric].every(Number.isFinite)).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('lists none when Redis is down', async () => {
    await redis.stop();
    expect(await readInstances(values, 'x')).toEqual([]);
    await redis.start();
  });
});
