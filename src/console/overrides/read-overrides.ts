import type { Overrides } from '../types.ts';
import { createEmptyOverrides } from './merge-overrides.ts';

const isRecord = (value: unknown): value is Record<string, any> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The overrides of a stored text (absent: none). Throws on a text that is not the overrides' JSON, so a
 * damaged store stops the start (or leaves the current overrides in force) instead of silently dropping them.
 */
export function readOverrides(text: string | undefined): Overrides {
  if (text === undefined) return createEmptyOverrides();
  const value: unknown = JSON.parse(text);
  if (!isRecord(value) || !isRecord(value.keys) || !Array.isArray(value.issued) || !value.issued.every(isRecord)) {
    throw new Error('the stored console overrides are not { keys: {...}, issued: [...] }');
  }
  return { keys: value.keys, issued: value.issued } as Overrides;
}
