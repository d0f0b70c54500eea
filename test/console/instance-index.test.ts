import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimInstanceSlot } from '../../src/console/claim-instance-slot.ts';
import { EPOCH_MS, getEpoch, MAX_INSTANCES, readInstanceIds, slotKey } from '../../src/console/instance-index.ts';
import { createRedisStore } from '../../src/limits/redis-store.ts';
import type { LimitStore } from '../../src/limits/store.ts';
import { startTestRedis, type TestRedis } from '../limits/redis-server.ts';

/** Instances register in the index with SET NX only: racing instances (each on its own connection to a real Redis) are all listed, every time. */
let redis: TestRedis;
const stores: LimitStore[] = [];
const logger = pino({ level: 'silent' });
/** An epoch of its own per test, far from the clock's, so the tests never see each other's slots. */
let nextEpoch = getEpoch(Date.now()) + 1_000_000;
const takeEpochTime = () => (nextEpoch += 10) * EPOCH_MS + 1;

beforeAll(async () => {
  redis = await startTestRedis();
  for (let i = 0; i < 5; i++) stores.push(await createRedisStore({ url: redis.url, failOpen: true, log: logger }));
});
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await redis?.stop();
});

const valuesOf = (i: number) => stores[i].values!;

describe('the instance index', () => {
  it('lists both of two instances registering at the same moment, in each of 40 rounds', async () => {
    for (let round = 0; round < 40; round++) {
      const now = takeEpochTime();
      const claimed = await Promise.all([claimInstanceSlot(valuesOf(0), 'host-a/1', now), claimInstanceSlot(valuesOf(1), 'host-b/2', now)]);
      expect(claimed).toEqual([true, true]);
      expect(await readInstanceIds(valuesOf(2), now)).toEqual(['host-a/1', 'host-b/2']);
    }
  });

  it('lists all of five racing instances, each in its own slot, without gaps', async () => {
    const now = takeEpochTime();
    const ids = ['e/5', 'd/4', 'c/3', 'b/2', 'a/1'];
    await Promise.all(ids.map((id, i) => claimInstanceSlot(valuesOf(i), id, now)));
    expect(await readInstanceIds(valuesOf(0), now)).toEqual([...ids].sort());
    const slots = await Promise.all(ids.map((_, n) => valuesOf(0).get(slotKey(getEpoch(now), n))));
    expect([...slots].sort()).toEqual([...ids].sort());
    expect(await valuesOf(0).get(slotKey(getEpoch(now), ids.length))).toBeUndefined();
  });

  it('keeps an instance that registers again in the same epoch in its one slot', async () => {
    const now = takeEpochTime();
    await claimInstanceSlot(valuesOf(0), 'a/1', now);
    await claimInstanceSlot(valuesOf(1), 'b/2', now);
    await claimInstanceSlot(valuesOf(0), 'a/1', now + 1000);
    expect(await valuesOf(0).get(slotKey(getEpoch(now), 2))).toBeUndefined();
  });

  it('lists an instance through the next epoch, and no more after that unless it registers again', async () => {
    const now = takeEpochTime();
    await claimInstanceSlot(valuesOf(0), 'gone/1', now);
    await claimInstanceSlot(valuesOf(0), 'stays/2', now);
    expect(await readInstanceIds(valuesOf(1), now + EPOCH_MS)).toEqual(['gone/1', 'stays/2']);
    await claimInstanceSlot(valuesOf(0), 'stays/2', now + EPOCH_MS);
    expect(await readInstanceIds(valuesOf(1), now + 2 * EPOCH_MS)).toEqual(['stays/2']);
  });

  it(`lists at most ${MAX_INSTANCES} instances, and an instance finding every slot taken says so`, async () => {
    const now = takeEpochTime();
    const epoch = getEpoch(now);
    await valuesOf(0).set(Array.from({ length: MAX_INSTANCES }, (_, n) => [slotKey(epoch, n), `full/${n}`] as const), 30_000);
    expect(await claimInstanceSlot(valuesOf(1), 'late/1', now)).toBe(false);
    expect(await readInstanceIds(valuesOf(1), now)).toHaveLength(MAX_INSTANCES);
  });

  it('reads whatever the slots hold as ids without throwing (each once, sorted, cut to a sane length)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.string(), fc.string({ minLength: 300, maxLength: 400 })), { maxLength: 12 }), async (held) => {
        const now = takeEpochTime();
        if (held.length > 0) await valuesOf(0).set(held.map((id, n) => [slotKey(getEpoch(now), n), id] as const), 30_000);
        const ids = await readInstanceIds(valuesOf(1), now);
        expect(ids).toEqual([...new Set(held.map((id) => id.slice(0, 300)))].sort());
      }),
      { numRuns: 40 },
    );
  });
});
