import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRedisStore } from '../../src/limits/redis-store.ts';
import type { LimitStore } from '../../src/limits/store.ts';
import { createMemoryValues } from '../../src/response-store/memory-values.ts';
import { keepTaskSecret, TASK_SECRET_FILE } from '../../src/runtime/keep-task-secret.ts';
import { startTestRedis, type TestRedis } from '../limits/redis-server.ts';

/** The task secret kept when GATEWAY_TASK_SECRET is unset: created once, then the same for every process and restart. */
let redis: TestRedis;
let limits: LimitStore;
let dir: string;
beforeAll(async () => {
  redis = await startTestRedis();
  limits = await createRedisStore({ url: redis.url, failOpen: true, prefix: 'task-secret-test:' });
  dir = await mkdtemp(join(tmpdir(), 'task-secret-'));
});
afterAll(async () => {
  await limits.close();
  await redis.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the kept task secret', () => {
  test('with the memory store: one random secret in a 0600 file beside the config, the same for processes starting together and after a restart', async () => {
    const together = await Promise.all(Array.from({ length: 8 }, () => keepTaskSecret(undefined, dir)));
    expect(new Set(together).size).toBe(1);
    expect(together[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await keepTaskSecret(undefined, dir)).toBe(together[0]);
    expect((await stat(join(dir, TASK_SECRET_FILE))).mode & 0o777).toBe(0o600);
    const other = await mkdtemp(join(tmpdir(), 'task-secret-'));
    expect(await keepTaskSecret(undefined, other)).not.toBe(together[0]);
    await rm(other, { recursive: true, force: true });
  });

  test('with Redis: the first writer wins for every process, and a restart reads it again', async () => {
    const together = await Promise.all(Array.from({ length: 8 }, () => keepTaskSecret(limits.values, dir)));
    expect(new Set(together).size).toBe(1);
    expect(together[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await keepTaskSecret(limits.values, '/nonexistent')).toBe(together[0]);
    expect(await limits.values!.get('gateway:task-secret')).toBe(together[0]);
  });

  test('an unwritable folder is an error (the caller warns and falls back), not a secret nobody else can read', async () => {
    await expect(keepTaskSecret(undefined, '/nonexistent/config-folder')).rejects.toThrow(/ENOENT/);
  });

  test('memory values keep the first value until it expires', async () => {
    let now = 0;
    const values = createMemoryValues({ now: () => now });
    expect(await values.keep('k', 'first', 1000)).toBe('first');
    expect(await values.keep('k', 'second', 1000)).toBe('first');
    now = 1000;
    expect(await values.keep('k', 'third', 1000)).toBe('third');
  });
});
