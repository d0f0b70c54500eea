import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRedisStore } from '../../src/limits/redis-store.ts';
import { StoreUnavailableError, type LimitStore, type ValueStore } from '../../src/limits/store.ts';
import { readStore } from '../../src/responses-state/read-store.ts';
import { createMemoryValues } from '../../src/response-store/memory-values.ts';
import { createResponseStore } from '../../src/response-store/response-store.ts';
import { startTestRedis, type TestRedis } from '../limits/redis-server.ts';

const LIMITS = { ttlMs: 60_000, maxBytes: 10_000 };
const RECORD = {
  id: 'resp_1',
  model: 'm',
  response: { id: 'resp_1', output: [{ id: 'msg_1', type: 'message' }] },
  input: [{ id: 'msg_0', type: 'message', role: 'user', content: 'hi' }],
  context: [],
};

let redis: TestRedis;
let limits: LimitStore;
beforeAll(async () => {
  redis = await startTestRedis();
  limits = await createRedisStore({ url: redis.url, failOpen: true, prefix: 'rs-test:' });
});
afterAll(async () => {
  await limits.close();
  await redis.stop();
});

describe.each([['memory', () => createMemoryValues()], ['redis', () => limits.values!]] as Array<[string, () => ValueStore]>)('response store on %s values', (_name, makeValues) => {
  test('keeps a response and its items under the key that created it; another key finds neither', async () => {
    const store = createResponseStore(makeValues());
    expect(await store.save('team', RECORD, [...RECORD.input, ...RECORD.response.output], LIMITS)).toBe(true);
    expect(await store.get('team', 'resp_1')).toEqual(RECORD);
    expect(await store.getItem('team', 'msg_1')).toEqual({ id: 'msg_1', type: 'message' });
    expect(await store.get('other', 'resp_1')).toBeUndefined();
    expect(await store.getItem('other', 'msg_1')).toBeUndefined();
  });

  test('delete removes the response and its items; a second delete finds nothing', async () => {
    const store = createResponseStore(makeValues());
    await store.save('team', { ...RECORD, id: 'resp_2' }, [{ id: 'msg_9' }], LIMITS);
    expect(await store.delete('other', 'resp_2')).toBe(false);
    expect(await store.delete('team', 'resp_2')).toBe(true);
    expect([await store.get('team', 'resp_2'), await store.getItem('team', 'msg_9')]).toEqual([undefined, undefined]);
    expect(await store.delete('team', 'resp_2')).toBe(false);
  });

  test('a response a vendor keeps is noted as id -> vendor for the creating key only, and forgotten on delete', async () => {
    const store = createResponseStore(makeValues());
    await store.saveVendorHeld('team', 'resp_v', 'openai', 60_000);
    expect([await store.getVendorHeld('team', 'resp_v'), await store.getVendorHeld('other', 'resp_v')]).toEqual(['openai', undefined]);
    expect(await store.get('team', 'resp_v')).toBeUndefined();
    await store.deleteVendorHeld('team', 'resp_v');
    expect(await store.getVendorHeld('team', 'resp_v')).toBeUndefined();
  });

  test('a response over the size cap is not kept', async () => {
    const store = createResponseStore(makeValues());
    const big = { ...RECORD, id: 'resp_3', input: [{ id: 'msg_b', text: 'x'.repeat(20_000) }] };
    expect(await store.save('team', big, big.input, LIMITS)).toBe(false);
    expect(await store.get('team', 'resp_3')).toBeUndefined();
  });
});

describe('notes of responses a vendor keeps', () => {
  test('expire after their TTL like the responses the gateway keeps', async () => {
    let now = 1_000;
    const store = createResponseStore(createMemoryValues({ now: () => now }));
    await store.saveVendorHeld('team', 'resp_t', 'openai', 60_000);
    now += 59_999;
    expect(await store.getVendorHeld('team', 'resp_t')).toBe('openai');
    now += 1;
    expect(await store.getVendorHeld('team', 'resp_t')).toBeUndefined();
  });
});

describe('reading the store', () => {
  test('an unreachable store is a 503 response_store_unavailable; other errors pass through', async () => {
    await expect(readStore(() => Promise.reject(new StoreUnavailableError(new Error('down'))))).rejects.toMatchObject({ status: 503, code: 'response_store_unavailable' });
    await expect(readStore(() => Promise.reject(new TypeError('bug')))).rejects.toBeInstanceOf(TypeError);
  });
});
