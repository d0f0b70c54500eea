import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '../../src/limits/redis-store.ts';
import { startTestRedis, type TestRedis } from '../limits/redis-server.ts';
import { writeConsoleConfig } from '../helpers/start-console-cli.ts';
import type { WrittenConfig } from '../helpers/write-gateway-config.ts';
import { runDiff } from '../helpers/run-diff.ts';

/** `gateway diff --overrides CONFIG`: the console's overrides (file beside the config, or Redis) against gateway.yaml. */
const DIGEST = '3c9909afec25354d551dae21590bb26e38d53f2173b8d3dc3eee4c047e7ab1c1';
const OVERRIDES = {
  keys: { team: { limits: { rpm: 1 } }, ops: { disabled: true } },
  issued: [{ name: 'from-console', sha256: DIGEST, models: ['gpt-4o-mini'], limits: { rpm: 5 } }],
};

let memory: WrittenConfig;
let shared: WrittenConfig;
let redis: TestRedis;
beforeAll(async () => {
  [memory, shared, redis] = await Promise.all([writeConsoleConfig(false), writeConsoleConfig(true), startTestRedis()]);
});
afterAll(async () => {
  await Promise.all([memory?.remove(), shared?.remove(), redis?.stop()]);
});

describe('gateway diff --overrides', { timeout: 30_000 }, () => {
  it('exits 0 with "no changes" when the console changed nothing', async () => {
    const { code, stdout } = await runDiff(['--overrides', memory.file]);
    expect(stdout.trim()).toBe('no changes');
    expect(code).toBe(0);
  });

  it('shows each overridden key of the file beside the config as changed, before and after, never a digest (exit 1)', async () => {
    await writeFile(join(dirname(memory.file), '.gateway-overrides.json'), JSON.stringify(OVERRIDES));
    const { code, stdout } = await runDiff(['--overrides', memory.file]);
    expect(stdout).toContain('~ keys.team.limits.rpm: 100 -> 1');
    expect(stdout).toContain('- keys.ops: {"admin":true,"key":"(secret)","name":"ops"}');
    expect(stdout).toContain('+ keys.from-console: {"limits":{"rpm":5},"models":["gpt-4o-mini"],"name":"from-console","sha256":"(secret)"}');
    expect(stdout).not.toContain(DIGEST);
    expect(code).toBe(1);
    const json = await runDiff(['--overrides', memory.file, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).changes).toContainEqual({ path: 'keys.team.limits.rpm', kind: 'changed', before: 100, after: 1 });
    expect(json.stdout).not.toContain(DIGEST);
  });

  it('reads the overrides from Redis when server.store is Redis', async () => {
    const store = await createRedisStore({ url: redis.url, failOpen: false, log: pino({ level: 'silent' }) });
    await store.values!.set([['gateway:console:overrides', JSON.stringify({ keys: { team: { limits: { rpm: 7, tpm: 500 } } }, issued: [] })]], 60_000);
    await store.close();
    const { code, stdout } = await runDiff(['--overrides', shared.file], { GATEWAY_REDIS_URL: redis.url });
    expect(stdout).toContain('~ keys.team.limits.rpm: 100 -> 7');
    expect(stdout).toContain('+ keys.team.limits.tpm: 500');
    expect(stdout).toContain('2 changes');
    expect(code).toBe(1);
  });

  it('exits 2 on damaged overrides, an unset or unreachable store, and a wrong number of files', async () => {
    const unset = await runDiff(['--overrides', shared.file], { GATEWAY_REDIS_URL: '' });
    expect(unset).toMatchObject({ code: 2, stdout: '' });
    expect(unset.stderr).toContain('env:GATEWAY_REDIS_URL, which is not set');
    const unreachable = await runDiff(['--overrides', shared.file], { GATEWAY_REDIS_URL: 'redis://127.0.0.1:1' });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain('cannot read the console overrides');
    await writeFile(join(dirname(memory.file), '.gateway-overrides.json'), '{"keys": []');
    const damaged = await runDiff(['--overrides', memory.file]);
    expect(damaged.code).toBe(2);
    expect(damaged.stderr).toContain('cannot read the console overrides');
    expect((await runDiff(['--overrides', memory.file, memory.file])).code).toBe(2);
    expect((await runDiff(['--overrides', join(dirname(memory.file), 'absent.yaml')])).code).toBe(2);
  });
});
