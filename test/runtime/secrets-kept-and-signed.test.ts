import { describe, expect, it } from 'vitest';
import { compileConfigFile } from '../../src/config/index.ts';
import type { CompiledConfig } from '../../src/config/types.ts';
import { listSecrets, readTaskSecret } from '../../src/runtime/secrets.ts';

async function loadConfig(): Promise<CompiledConfig> {
  const { config } = await compileConfigFile('gateway.yaml');
  return config!;
}

describe('the task secret', () => {
  it('is the env var when set, else the one kept in the store, else one random secret per process (an empty env var counts as unset)', async () => {
    const config = await loadConfig();
    expect(readTaskSecret(config, { GATEWAY_TASK_SECRET: 'from-env' }, 'kept-secret')).toBe('from-env');
    expect(readTaskSecret(config, {}, 'kept-secret')).toBe('kept-secret');
    expect(readTaskSecret(config, { GATEWAY_TASK_SECRET: '' }, 'kept-secret')).toBe('kept-secret');
    const random = readTaskSecret(config, { GATEWAY_TASK_SECRET: '' });
    expect(random).toMatch(/^[\w-]{43}$/);
    expect(readTaskSecret(config, {})).toBe(random);
  });
});

describe('the secrets of a signed vendor', () => {
  it('are its secret, its key id and its session token, each read from its env var', async () => {
    const base = await loadConfig();
    const signed = (tokenEnv?: string): CompiledConfig => ({
      ...base,
      keys: [],
      vendors: { signer: { ...base.vendors.openai, name: 'signer', auth: { kind: 'signed', scheme: 'sigv4', env: 'SIGN_SECRET', idEnv: 'SIGN_ID', tokenEnv } } },
    });
    const env = { GATEWAY_TASK_SECRET: 'task', SIGN_SECRET: 'signing-secret', SIGN_ID: 'AKIDEXAMPLE', SIGN_TOKEN: 'session-token' };
    expect(listSecrets(signed('SIGN_TOKEN'), env)).toEqual(['task', 'signing-secret', 'AKIDEXAMPLE', 'session-token']);
    expect(listSecrets(signed(), env)).toEqual(['task', 'signing-secret', 'AKIDEXAMPLE']);
  });
});
