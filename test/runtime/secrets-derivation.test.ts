import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compileConfigFile } from '../../src/config/index.ts';
import type { CompiledConfig, KeyEntry } from '../../src/config/types.ts';
import { NO_SECRETS } from '../../src/runtime/redact.ts';
import { listSecrets, readKeyDigest } from '../../src/runtime/secrets.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const key = (name: string, secret: KeyEntry['secret']): KeyEntry => ({ name, secret, models: ['*'], limits: {}, strict: false });

async function loadConfig(change: (config: CompiledConfig) => CompiledConfig): Promise<CompiledConfig> {
  const { config } = await compileConfigFile('gateway.yaml');
  return change(config!);
}

const withRedis = (config: CompiledConfig): CompiledConfig => ({
  ...config,
  server: { ...config.server, store: { kind: 'redis', env: 'GATEWAY_REDIS_URL', failOpen: true } },
});

describe('client key digests', () => {
  it('a key configured by sha256 is that digest; a key by env var is the digest of its value, none when unset', () => {
    const hex = sha256('some-client-key');
    expect(readKeyDigest(key('h', { sha256: hex }), {})!.toString('hex')).toBe(hex);
    expect(readKeyDigest(key('e', { env: 'K' }), { K: 'some-client-key' })!.toString('hex')).toBe(hex);
    expect(readKeyDigest(key('e', { env: 'K' }), {})).toBeUndefined();
  });
});

describe('the Redis password among the secrets', () => {
  const env = { GATEWAY_TASK_SECRET: 'task-secret-value' };

  it('no Redis URL set: no password', async () => {
    expect(listSecrets(await loadConfig(withRedis), env)).toEqual(['task-secret-value']);
  });

  it('a URL that does not parse: no password, and no throw', async () => {
    expect(listSecrets(await loadConfig(withRedis), { ...env, GATEWAY_REDIS_URL: 'not a url' })).toEqual(['task-secret-value']);
  });

  it('a password that does not URL-decode: the password as written', async () => {
    const secrets = listSecrets(await loadConfig(withRedis), { ...env, GATEWAY_REDIS_URL: 'redis://:bad%zzpassword@127.0.0.1:6379' });
    expect(secrets).toEqual(['task-secret-value', 'bad%zzpassword']);
  });
});

describe('the redactor of a gateway without secrets', () => {
  it('searches for nothing and changes nothing', () => {
    expect(NO_SECRETS.forms).toEqual([]);
    expect(NO_SECRETS.redactText('Stryker was here, sk-anything')).toBe('Stryker was here, sk-anything');
  });
});
