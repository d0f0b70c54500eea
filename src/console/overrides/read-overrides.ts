import type { IssuedKey, KeyOverride, Overrides } from '../types.ts';
import { createEmptyOverrides } from './merge-overrides.ts';

const isRecord = (value: unknown): value is Record<string, any> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** gateway.yaml's limits: rpm, tpm and concurrency, each a whole number >= 0 (nothing else), or null (see readNullLimits). */
function isLimits(value: unknown): boolean {
  return isRecord(value) && Object.entries(value).every(([name, n]) => ['rpm', 'tpm', 'concurrency'].includes(name) && (n === null || (Number.isInteger(n) && n >= 0)));
}

/** gateway.yaml's budget: `usd` in (0, 1e6], a `day` or `month` period, an optional `reserve_usd` in (0, 1e6]. */
function isBudget(value: unknown): boolean {
  const inRange = (n: unknown) => typeof n === 'number' && n > 0 && n <= 1_000_000;
  return isRecord(value) && inRange(value.usd) && (value.period === 'day' || value.period === 'month') && (value.reserve_usd === undefined || inRange(value.reserve_usd));
}

function isKeyOverride(value: unknown): value is KeyOverride {
  return isRecord(value)
    && (value.disabled === undefined || typeof value.disabled === 'boolean')
    && (value.limits === undefined || isLimits(value.limits))
    && (value.budget === undefined || value.budget === null || isBudget(value.budget));
}

function isIssuedKey(value: unknown): value is IssuedKey {
  return isRecord(value)
    && typeof value.name === 'string' && value.name !== ''
    && typeof value.sha256 === 'string' && /^[0-9a-f]{64}$/.test(value.sha256)
    && Array.isArray(value.models) && value.models.every((model: unknown) => typeof model === 'string')
    && (value.limits === undefined || isLimits(value.limits))
    && (value.budget === undefined || isBudget(value.budget));
}

/**
 * The overrides of a stored text (absent: none). Throws on a text that is not the overrides' JSON, down to
 * each key's limits, budget and digest, so a damaged store stops the start (or leaves the current overrides
 * in force at a poll) instead of silently dropping them or failing when a snapshot is made of them.
 */
export function readOverrides(text: string | undefined): Overrides {
  if (text === undefined) return createEmptyOverrides();
  const value: unknown = JSON.parse(text);
  if (!isRecord(value) || !isRecord(value.keys) || !Array.isArray(value.issued)) {
    throw new Error('the stored console overrides are not { keys: {...}, issued: [...] }');
  }
  const bad = Object.keys(value.keys).find((name) => !isKeyOverride(value.keys[name])) ?? (value.issued.every(isIssuedKey) ? undefined : 'an issued key');
  if (bad !== undefined) throw new Error(`the stored console overrides hold ${bad === 'an issued key' ? bad : `key "${bad}"`} that gateway.yaml could not`);
  const keys = Object.fromEntries(Object.entries(value.keys).map(([name, override]) => [name, readNullLimits(override as KeyOverride)]));
  return { keys, issued: (value.issued as IssuedKey[]).map(readNullLimits) };
}

/**
 * An entry with its null limits read as 0. Consoles that let an infinite number by (`rpm: 1e400` reads as
 * Infinity, stored as null) meant no limit, which gateway.yaml writes 0; so read, the gateway serves it,
 * the console shows it and `gateway diff --overrides` prints it alike (absent would fall back to
 * `server.limits` instead).
 */
function readNullLimits<T extends KeyOverride | IssuedKey>(entry: T): T {
  const limits = entry.limits as Record<string, number | null> | undefined;
  if (!limits || !Object.values(limits).includes(null)) return entry;
  return { ...entry, limits: Object.fromEntries(Object.entries(limits).map(([name, n]) => [name, n ?? 0])) };
}
