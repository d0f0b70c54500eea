import type { ProtocolAdapter } from '../protocols/types.ts';
import { defineFieldMarker, findField, findLastField, type FieldMarker } from './find-json-field.ts';
import { readTailObject } from './read-tail-object.ts';
import type { Usage } from './types.ts';

const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const COLON = 0x3a;

/** The markers of an adapter's usage fields, made once per adapter. */
const markerCache = new WeakMap<ProtocolAdapter, { name: string; marker: FieldMarker }[]>();

function getMarkers(adapter: ProtocolAdapter) {
  let markers = markerCache.get(adapter);
  if (!markers) markerCache.set(adapter, (markers = adapter.usageFields.map((name) => ({ name, marker: defineFieldMarker(name) }))));
  return markers;
}

/**
 * Index of the `{` of an object that follows the field name ending before `at` (`: {` with spaces), or -1.
 * Bytes from `end` on are not looked at.
 */
function findObjectAfter(body: Buffer, at: number, end = body.length): number {
  let i = skipSpaces(body, at, end);
  if (i >= end || body[i] !== COLON) return -1;
  i = skipSpaces(body, i + 1, end);
  return i < end && body[i] === OPEN ? i : -1;
}

/**
 * Where the first usage field followed by an object starts in `bytes` (its opening quote), or -1. Only the
 * bytes from `from` to before `end` are looked at (a line of a stream).
 */
export function findUsageObject(bytes: Buffer, adapter: ProtocolAdapter, from = 0, end = bytes.length): number {
  let first = -1;
  for (const { marker } of getMarkers(adapter)) {
    const length = marker.quoted.length;
    for (let at = findField(bytes, marker, from, end); at !== -1 && (first === -1 || at < first); at = findField(bytes, marker, at + length, end)) {
      if (findObjectAfter(bytes, at + length, end) !== -1) {
        first = at;
        break;
      }
    }
  }
  return first;
}

const ERROR_FIELD = defineFieldMarker('error');
const ERROR_LENGTH = ERROR_FIELD.quoted.length;
const NULL = Buffer.from('null');

/**
 * True when `bytes` hold an error event of any protocol: an `"error"` key or value (`"error": {...}`,
 * `"type": "error"`), not the `"error": null` that successful events of some streams carry. Strings inside
 * JSON strings are escaped (`\"error\"`), so a model's text never matches.
 */
export function hasErrorField(bytes: Buffer): boolean {
  for (let at = findField(bytes, ERROR_FIELD); at !== -1; at = findField(bytes, ERROR_FIELD, at + ERROR_LENGTH)) {
    let i = skipSpaces(bytes, at + ERROR_LENGTH);
    if (bytes[i] !== COLON) return true;
    i = skipSpaces(bytes, i + 1);
    if (i + NULL.length > bytes.length || bytes.compare(NULL, 0, NULL.length, i, i + NULL.length) !== 0) return true;
  }
  return false;
}

/**
 * A token count as limits, spend and metrics may take it: a whole, non-negative, safe number. Anything
 * else a vendor reports (a string, a fraction, a negative, 1e300, an object) is no count and is ignored.
 */
export function readTokenCount(value: unknown): number | undefined {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
}

/** Seconds of audio as spend may price them: a finite, non-negative number (fractions allowed). */
function readSeconds(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * `into[name] = count`, each Usage field stored by its written-out name: a store through a computed key
 * goes through V8's generic keyed store (a lookup and a map transition apiece), a named one is cached per
 * shape at its site.
 */
function setCount(into: Usage, name: keyof Usage, count: number): void {
  switch (name) {
    case 'inputTokens':
      into.inputTokens = count;
      break;
    case 'outputTokens':
      into.outputTokens = count;
      break;
    case 'totalTokens':
      into.totalTokens = count;
      break;
    case 'cachedInputTokens':
      into.cachedInputTokens = count;
      break;
    case 'cacheCreationInputTokens':
      into.cacheCreationInputTokens = count;
      break;
    case 'reasoningTokens':
      into.reasoningTokens = count;
      break;
    case 'audioSeconds':
      into.audioSeconds = count;
      break;
    default:
      (into as Record<string, number>)[name] = count;
  }
}

/**
 * Copies the usage fields a vendor reported into the request's usage (only well-formed counts). A report without a total (a
 * protocol that has none) makes the total input + output of the counts known so far, so a later event
 * with the output alone still updates it.
 */
export function addUsage(into: Usage, usage: Usage | undefined): void {
  if (!usage) return;
  // A for-in, not Object.entries: no array of pairs made for every answer.
  for (const field in usage) {
    const name = field as keyof Usage;
    const count = name === 'audioSeconds' ? readSeconds(usage[name]) : readTokenCount(usage[name]);
    if (count !== undefined) setCount(into, name, count);
  }
  if (usage.totalTokens === undefined && into.inputTokens !== undefined && into.outputTokens !== undefined) {
    into.totalTokens = into.inputTokens + into.outputTokens;
  }
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function skipSpaces(body: Buffer, at: number, end = body.length): number {
  while (at < end && isSpace(body[at])) at++;
  return at;
}

/** End index (inclusive) of the JSON object starting at `start`, strings and escapes respected. */
function findObjectEnd(body: Buffer, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < body.length; i++) {
    const byte = body[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN) depth++;
    else if (byte === CLOSE && --depth === 0) return i;
  }
  return -1;
}

/** A usage field this close to the answer's end is read by parsing the end whole, with no byte scan for its object's end. */
const TAIL_BYTES = 4096;

/**
 * The object under the field `name` whose quoted name starts at `at`, when that field is a member of the
 * answer's top-level object (answers put usage there, last or nearly): `{` and the answer's text from `at` on
 * parse as one object then. Undefined when they do not (a usage nested deeper, a long tail, a backslash in
 * it: an escaped name could repeat the field's), and the caller finds the object's end itself.
 */
function readTopLevelField(body: Buffer, at: number, name: string): unknown {
  if (body.length - at > TAIL_BYTES) return undefined;
  const tail = body.toString('utf8', at);
  if (tail.includes('\\')) return undefined;
  try {
    return (JSON.parse(`{${tail}`) as Record<string, unknown>)[name];
  } catch {
    return undefined;
  }
}

/**
 * Reads token usage from a whole JSON answer by parsing only the last object under one of the adapter's
 * usage fields (answers put it last), not the whole body: found in the answer's last bytes decoded once
 * and parsed alone ({@link readTailObject}), else found in the bytes and parsed with the rest of the answer
 * after it when that is short and the field is a top-level one ({@link readTopLevelField}), else alone, its
 * end found by a scan.
 */
export function readUsageFromJson(body: Buffer, adapter: ProtocolAdapter): Usage | undefined {
  for (const { name, marker } of getMarkers(adapter)) {
    let usage = readTailObject(body, name);
    if (usage === undefined) {
      const at = findLastField(body, marker);
      if (at <= 0 || body[at - 1] === BACKSLASH) continue;
      const i = findObjectAfter(body, at + marker.quoted.length);
      if (i === -1) continue;
      usage = readTopLevelField(body, at, name);
      if (usage === undefined) {
        const end = findObjectEnd(body, i);
        if (end === -1) continue;
        try {
          usage = JSON.parse(body.toString('utf8', i, end + 1));
        } catch {
          return undefined;
        }
      }
    }
    try {
      return adapter.readUsage({ [name]: usage });
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Cheap check that a body is framed as one JSON object or array (garbage from a vendor is not). */
export function looksLikeJson(body: Buffer): boolean {
  let first = 0;
  while (first < body.length && isSpace(body[first])) first++;
  let last = body.length - 1;
  while (last > first && isSpace(body[last])) last--;
  const open = body[first];
  const close = body[last];
  return (open === OPEN && close === CLOSE) || (open === 0x5b && close === 0x5d);
}
