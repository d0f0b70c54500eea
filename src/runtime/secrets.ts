import { createHash, randomBytes } from 'node:crypto';
import type { CompiledConfig, KeyEntry } from '../config/types.ts';

/** sha256 digest of a key, as stored and compared. */
export function digestKey(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** The digest of a client key (from its env var, or its configured sha256); undefined when its env var is unset. */
export function readKeyDigest(key: KeyEntry, env: NodeJS.ProcessEnv): Buffer | undefined {
  if ('sha256' in key.secret) return Buffer.from(key.secret.sha256, 'hex');
  const value = env[key.secret.env];
  return value ? digestKey(value) : undefined;
}

/** A random task secret made once in this process, for a gateway that could keep none (see readTaskSecret). */
let processTaskSecret: string | undefined;

/**
 * The secret that signs task ids: the env var `server.task_secret` names (GATEWAY_TASK_SECRET by
 * default), else the one `kept` in `server.store` (keep-task-secret.ts), else a random one made once in
 * this process. Never one derived from the config: anyone reading gateway.yaml could forge task ids with
 * it. The random one's ids stop resolving after a restart and are not known to other workers (the CLI warns).
 */
export function readTaskSecret(config: CompiledConfig, env: NodeJS.ProcessEnv, kept?: string): string {
  // Empty is unset, as for every other secret: an empty HMAC key would let anyone sign task ids.
  const explicit = env[config.server.taskSecret.env];
  if (explicit) return explicit;
  return kept ?? (processTaskSecret ??= randomBytes(32).toString('base64url'));
}

/** The password of a `redis://` URL as written and decoded (none when it has none). */
function readUrlPassword(url: string | undefined): string[] {
  let password = '';
  try {
    password = url ? new URL(url).password : '';
  } catch {
    return [];
  }
  try {
    return [password, decodeURIComponent(password)];
  } catch {
    return [password];
  }
}

/**
 * Every secret value the gateway holds under `config` and `env`: the vendor credentials (`auth` env vars),
 * the client keys given by env var, the task secret and the password of the `server.store` Redis URL.
 * What is redacted from vendor errors relayed to clients and from every log line.
 */
export function listSecrets(config: CompiledConfig, env: NodeJS.ProcessEnv, taskSecret = readTaskSecret(config, env)): string[] {
  const secrets: (string | undefined)[] = [taskSecret];
  for (const vendor of Object.values(config.vendors)) if (vendor.auth.kind !== 'none') secrets.push(env[vendor.auth.env]);
  for (const { auth } of Object.values(config.vendors)) if (auth.kind === 'signed') secrets.push(env[auth.idEnv], auth.tokenEnv && env[auth.tokenEnv]);
  for (const key of config.keys) if ('env' in key.secret) secrets.push(env[key.secret.env]);
  const { store } = config.server;
  if (store.kind === 'redis') secrets.push(...readUrlPassword(env[store.env]));
  return [...new Set(secrets.filter((s): s is string => !!s))];
}
