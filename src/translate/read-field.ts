/**
 * Type checks of the request fields a client adapter reads. A field of the wrong type is the client's
 * mistake: it is answered 400 `invalid_request` naming the field's path (OpenAI `param`, and in the
 * message) before the vendor is called, never passed on to become a vendor error about something else.
 * Client-supplied values quoted in messages are clipped (`clipClientText`).
 */
import { GatewayError } from '../errors.ts';
import { clipClientText } from '../lib/clip-text.ts';
import { isRecord } from './helpers.ts';

/** The 400 of a field `path` that is not what it must be (`expected`, e.g. "an array"). */
export function createFieldError(path: string, expected: string): GatewayError {
  const field = clipClientText(path);
  return new GatewayError(400, 'invalid_request', `Invalid field "${field}": must be ${expected}.`, { param: field });
}

/** A value quoted in an error message, clipped. */
export function quoteValue(value: unknown): string {
  return clipClientText(typeof value === 'string' ? value : JSON.stringify(value) ?? String(value));
}

/** True for an absent field (`undefined` or `null`). */
export function isAbsent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

/** A list field: the array, undefined when absent, else a 400. `nonEmpty`: an empty list is a 400 too. */
export function readList(value: unknown, path: string, nonEmpty = false): unknown[] | undefined {
  if (isAbsent(value)) {
    if (nonEmpty) throw createFieldError(path, 'a non-empty array');
    return undefined;
  }
  if (!Array.isArray(value)) throw createFieldError(path, nonEmpty ? 'a non-empty array' : 'an array');
  if (nonEmpty && value.length === 0) throw createFieldError(path, 'a non-empty array');
  return value;
}

/** An object field (a list item, a part): the object, else a 400. */
export function readObject(value: unknown, path: string): Record<string, any> {
  if (!isRecord(value)) throw createFieldError(path, 'an object');
  return value;
}

/** An optional object field: undefined when absent, else the object or a 400. */
export function readOptionalObject(value: unknown, path: string): Record<string, any> | undefined {
  return isAbsent(value) ? undefined : readObject(value, path);
}

/** A number field: undefined when absent, else a finite number or a 400. */
export function readNumberField(value: unknown, path: string): number | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw createFieldError(path, 'a number');
  return value;
}

/** A string field: undefined when absent, else a string or a 400. */
export function readStringField(value: unknown, path: string): string | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'string') throw createFieldError(path, 'a string');
  return value;
}

/** A required string field (a text part's text): a string, else a 400. */
export function readRequiredString(value: unknown, path: string): string {
  if (typeof value !== 'string') throw createFieldError(path, 'a string');
  return value;
}

/** A name (of a tool, a function call): a non-empty string, else a 400. */
export function readName(value: unknown, path: string): string {
  if (typeof value !== 'string' || value === '') throw createFieldError(path, 'a non-empty string');
  return value;
}

/** A message's content: a string or a list of parts; absent only when `optional`. Else a 400. */
export function readContentField(value: unknown, path: string, optional = false): string | unknown[] | undefined {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  if (optional && isAbsent(value)) return undefined;
  throw createFieldError(path, 'a string or an array of content parts');
}

/** A role: one of `roles`, else a 400 listing them. */
export function readRole<T extends string>(value: unknown, path: string, roles: readonly T[]): T {
  if (typeof value === 'string' && (roles as readonly string[]).includes(value)) return value as T;
  throw createFieldError(path, `one of ${roles.map((role) => `'${role}'`).join(', ')} (got ${quoteValue(value)})`);
}

/** Stop sequences: one string or a list of strings (undefined when absent or empty), else a 400. */
export function readStopField(value: unknown, path: string): string[] | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw createFieldError(path, 'a string or an array of strings');
  return value.length > 0 ? value : undefined;
}
