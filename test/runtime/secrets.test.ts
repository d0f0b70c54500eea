import { describe, expect, it } from 'vitest';
import { compileConfigFile } from '../../src/config/index.ts';
import type { CompiledConfig } from '../../src/config/types.ts';
import { listSecrets, readTaskSecret } from '../../src/runtime/secrets.ts';
import { createSnapshot } from '../../src/runtime/snapshot.ts';

async function loadConfig(change: (config: CompiledConfig) => CompiledConfig = (c) => c): Promise<CompiledConfig> {
  const { config } = await compileConfigFile('gateway.yaml');
  return change(config!);
}

const withRedis = (config: CompiledConfig): CompiledConfig => ({
  ...config,
  server: { ...config.server, store: { kind: 'redis', env: 'GATEWAY_REDIS_URL', failOpen: true } },
  keys: [...config.keys, { name: 'hashed', secret: { sha256: 'ab'.repeat(32) }, models: ['*'], limits: {}, strict: false }],
});

describe('the secrets the gateway holds', () => {
  it('lists the vendor keys, the client keys given by env var, the task secret and the Redis password', async () => {
    const config = await loadConfig(withRedis);
    const env = {
      OPENAI_API_KEY: 'sk-openai-value',
      ANTHROPIC_API_KEY: 'sk-ant-value',
      GATEWAY_API_KEY: 'sk-client-value',
      GATEWAY_TASK_SECRET: 'task-secret-value',
      GATEWAY_REDIS_URL: 'redis://user:p%40ss%2Fword@127.0.0.1:6379/0',
    };
    expect(listSecrets(config, env).sort()).toEqual(
      ['sk-openai-value', 'sk-ant-value', 'sk-client-value', 'task-secret-value', 'p%40ss%2Fword', 'p@ss/word'].sort(),
    );
  });

  it("lists the process's random task secret when none is set or kept, the one the snapshot signs task ids with", async () => {
    const config = await loadConfig();
    const env = { GATEWAY_API_KEY: 'sk-client-value' };
    const random = readTaskSecret(config, env);
    expect(random).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(createSnapshot(config, env).taskSecret).toBe(random);
    expect(listSecrets(config, env)).toEqual([random, 'sk-client-value']);
  });

  it('lists nothing unset and no password of a Redis URL without one', async () => {
    const config = await loadConfig(withRedis);
    const env = { GATEWAY_TASK_SECRET: 'task-secret-value', OPENAI_API_KEY: '', GATEWAY_REDIS_URL: 'redis://127.0.0.1:6379' };
    expect(listSecrets(config, env)).toEqual(['task-secret-value']);
  });

  it('gives the snapshot a redactor of them all, shared by its vendors', async () => {
    const config = await loadConfig();
    const snapshot = createSnapshot(config, { OPENAI_API_KEY: 'sk-openai-value', GATEWAY_API_KEY: 'sk-client-value' });
    expect(snapshot.redactor.redactText('sk-openai-value sk-client-value')).toBe('[redacted] [redacted]');
    expect(snapshot.vendors.get('anthropic')!.redactor).toBe(snapshot.redactor);
  });
});
