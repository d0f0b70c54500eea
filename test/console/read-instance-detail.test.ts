import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERIES_METRICS } from '../../src/console/aggregate/usage-group.ts';
import { PUBLISHED_ROWS } from '../../src/console/describe-instance.ts';
import { getEpoch, instanceDetailKey, instanceKey, slotKey } from '../../src/console/instance-index.ts';
import { readInstanceDetail } from '../../src/console/read-instance-detail.ts';
import { readInstances } from '../../src/console/read-instances.ts';
import type { UsageGroup } from '../../src/console/aggregate/usage-group.ts';
import { createRedisStore } from '../../src/limits/redis-store.ts';
import type { LimitStore, ValueStore } from '../../src/limits/store.ts';
import { startTestRedis, type TestRedis } from '../limits/redis-server.ts';

/** Whatever another instance (or anyone with the store) wrote under an instance's keys, a console reads a well-formed overview or none, and never throws. */
let redis: TestRedis;
let store: LimitStore;
let values: ValueStore;

beforeAll(async () => {
  redis = await startTestRedis();
  store = await createRedisStore({ url: redis.url, failOpen: true, log: pino({ level: 'silent' }) });
  values = store.values!;
});
afterAll(async () => {
  await store?.close();
  await redis?.stop();
});

const deflated = (value: unknown) => deflateRawSync(JSON.stringify(value) ?? '').toString('base64');
/** Values shaped like a group with anything in its fields. */
const shapedGroup = fc.record({ summary: fc.dictionary(fc.constantFrom('requests', 'errorRate', 'p50LatencyMs'), fc.anything()), series: fc.dictionary(fc.constantFrom(...SERIES_METRICS), fc.anything()) }, { requiredKeys: [] });
const shapedTotal = fc.tuple(shapedGroup, fc.anything()).map(([group, updatedAt]) => JSON.stringify({ ...group, id: 'x', updatedAt }));
const shapedRow = fc.dictionary(fc.constantFrom('time', 'key', 'style', 'model', 'status', 'error', 'ttfbMs', 'costUsd', 'pid'), fc.oneof(fc.anything(), fc.string({ maxLength: 500 }), fc.double()));
const shapedDetail = fc
  .record({ id: fc.constantFrom('x', 'y'), byStyle: fc.oneof(fc.anything(), fc.dictionary(fc.string(), shapedGroup)), byModel: fc.dictionary(fc.string(), fc.oneof(shapedGroup, fc.anything()), { maxKeys: 40 }), recent: fc.oneof(fc.anything(), fc.array(shapedRow, { maxLength: 40 })) }, { requiredKeys: [] })
  .map(deflated);
const anyText = fc.oneof(fc.string(), fc.json(), fc.base64String(), fc.anything().map(deflated));

function expectGroup(group: UsageGroup): void {
  expect(Object.values(group.summary).every(Number.isFinite)).toBe(true);
  for (const metric of SERIES_METRICS) expect(group.series[metric].length === 60 && group.series[metric].every(Number.isFinite)).toBe(true);
}

describe('reading other instances from the store', () => {
  it('reads an instance as a well-formed overview, or none, whatever its two values hold', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyText, shapedTotal), fc.oneof(anyText, shapedDetail), async (total, detail) => {
        await values.set([[instanceKey('x'), total], [instanceDetailKey('x'), detail]], 5000);
        const read = await readInstanceDetail(values, 'x');
        if (!read) return;
        expect(read.id).toBe('x');
        expect(Number.isFinite(read.updatedAt)).toBe(true);
        expectGroup(read.total);
        for (const groups of [read.byStyle, read.byModel]) {
          expect(Object.keys(groups).length).toBeLessThanOrEqual(21);
          for (const [name, group] of Object.entries(groups)) {
            expect(name.length).toBeLessThanOrEqual(200);
            expectGroup(group);
          }
        }
        expect(read.recent.length).toBeLessThanOrEqual(PUBLISHED_ROWS);
        for (const row of read.recent) {
          for (const field of ['time', 'status', 'inputTokens', 'outputTokens', 'durationMs', 'pid'] as const) expect(Number.isFinite(row[field])).toBe(true);
          for (const field of ['ttfbMs', 'costUsd'] as const) expect(row[field] === undefined || Number.isFinite(row[field])).toBe(true);
          for (const field of ['key', 'style', 'model', 'vendor', 'error'] as const) expect(row[field] === undefined || (typeof row[field] === 'string' && row[field]!.length <= 200)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('reads no detail out of a value that inflates past its bound', async () => {
    await values.set([[instanceKey('x'), JSON.stringify({ id: 'x', summary: {}, series: {} })], [instanceDetailKey('x'), deflated({ id: 'x', recent: [], pad: 'x'.repeat(5 << 20) })]], 5000);
    expect(await readInstanceDetail(values, 'x')).toMatchObject({ id: 'x', byStyle: {}, byModel: {}, recent: [] });
  });

  it('lists only well-formed instances whatever the slots and totals hold, and never throws', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.constant('x')), fc.oneof(anyText, shapedTotal), async (id, total) => {
        await values.set([[slotKey(getEpoch(Date.now()), 0), id], [instanceKey(id), total]], 5000);
        for (const instance of await readInstances(values, 'x')) {
          expect(typeof instance.id).toBe('string');
          expectGroup(instance);
        }
      }),
      { numRuns: 60 },
    );
  });
});
