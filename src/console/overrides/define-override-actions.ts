import { createHash, randomBytes } from 'node:crypto';
import type { CompiledConfig } from '../../config/types.ts';
import { GatewayError } from '../../errors.ts';
import type { IssuedKey, KeyOverride, Overrides } from '../types.ts';
import { checkKeyEntry } from './validate-key-entry.ts';
import { toText } from '../../lib/to-text.ts';

/** A placeholder digest: the schema wants one on every key, the check is about the other fields. */
const ANY_DIGEST = '0'.repeat(64);

/** The key named `name` as gateway.yaml has it or as the console issued it; 404 `key_not_found` otherwise, 400 for an admin key. */
function findKey(base: CompiledConfig, overrides: Overrides, name: unknown): { name: string; models: string[] } {
  const key = typeof name === 'string' ? (base.keys.find((k) => k.name === name) ?? overrides.issued.find((k) => k.name === name)) : undefined;
  if (!key) throw new GatewayError(404, 'key_not_found', `No key named ${JSON.stringify(toText(name).slice(0, 80))}.`);
  if ('admin' in key && key.admin) throw new GatewayError(400, 'admin_key_not_overridable', 'Admin keys are changed in gateway.yaml only.');
  return key;
}

/** Sets a key's override fields, dropping the entry when nothing is left in it. */
function setOverride(overrides: Overrides, name: string, patch: KeyOverride): Overrides {
  const entry: KeyOverride = { ...overrides.keys[name], ...patch };
  if (entry.disabled === false) delete entry.disabled;
  if (Object.keys(entry).length === 0) delete overrides.keys[name];
  else overrides.keys[name] = entry;
  return overrides;
}

/**
 * `limits` (rpm, tpm, concurrency as in gateway.yaml) and, when given, `budget` (gateway.yaml's
 * `{ usd, period, reserve_usd? }`, or null to remove the key's budget) for key `name`, checked by gateway.yaml's schema.
 */
export function defineSetLimits(base: CompiledConfig, name: unknown, limits: unknown, budget?: unknown) {
  return (overrides: Overrides): Overrides => {
    const key = findKey(base, overrides, name);
    checkKeyEntry({ name: key.name, sha256: ANY_DIGEST, models: key.models, limits, ...(budget === undefined || budget === null ? {} : { budget }) });
    const patch: KeyOverride = { limits: limits as KeyOverride['limits'] };
    if (budget !== undefined) patch.budget = budget as KeyOverride['budget'];
    return setOverride(overrides, key.name, patch);
  };
}

/** Disables (or re-enables) key `name`: its requests get 401 while it is disabled. */
export function defineSetDisabled(base: CompiledConfig, name: unknown, disabled: boolean) {
  return (overrides: Overrides): Overrides => setOverride(overrides, findKey(base, overrides, name).name, { disabled });
}

/** The fields of a key the console issues (the others, admin included, are written in gateway.yaml). */
const ISSUED_FIELDS = ['name', 'models', 'limits', 'budget'];

/** A new key's secret: 32 random bytes, base64url, with a prefix that says what it is. */
function createSecret(): string {
  return `gwk-${randomBytes(32).toString('base64url')}`;
}

/**
 * Issues a key: `fields` are gateway.yaml's (name, models, limits, budget) and are checked by its schema;
 * the secret is generated here, returned once through `issued.secret` and stored only as its sha256.
 * 409 `key_name_taken` when a key of that name exists.
 */
export function defineIssueKey(base: CompiledConfig, fields: unknown, issued: { secret?: string }) {
  return (overrides: Overrides): Overrides => {
    const raw = (typeof fields === 'object' && fields !== null ? fields : {}) as Record<string, unknown>;
    const secret = createSecret();
    const entry = { ...raw, sha256: createHash('sha256').update(secret).digest('hex') };
    checkKeyEntry(entry);
    const extra = Object.keys(raw).filter((field) => !ISSUED_FIELDS.includes(field));
    if (extra.length) throw new GatewayError(400, 'invalid_override', `The console issues keys with ${ISSUED_FIELDS.join(', ')} only; write ${extra.join(', ')} in gateway.yaml.`);
    const name = raw.name as string;
    if (base.keys.some((key) => key.name === name) || overrides.issued.some((key) => key.name === name)) {
      throw new GatewayError(409, 'key_name_taken', `A key named ${JSON.stringify(name)} exists already.`);
    }
    overrides.issued.push(entry as unknown as IssuedKey);
    issued.secret = secret;
    return overrides;
  };
}
