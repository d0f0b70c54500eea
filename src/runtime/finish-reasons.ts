import type { ProtocolAdapter } from '../protocols/types.ts';
import { defineFieldMarker, findField, type FieldMarker } from './find-json-field.ts';

const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const COLON = 0x3a;

/** At most this many reasons per request (one per choice or candidate), each at most this long: vendor text. */
const MAX_REASONS = 16;
const MAX_REASON_LENGTH = 64;

let reading = false;

/**
 * Turns on the reading of finish reasons in this process. Reading them costs a byte search per JSON answer and
 * per stream read, and traces are their one reader: the trace exporter turns it on when it starts.
 */
export function startReadingFinishReasons(): void {
  reading = true;
}

/** True once {@link startReadingFinishReasons} was called: requests then read and report their finish reasons. */
export function isReadingFinishReasons(): boolean {
  return reading;
}

/** The markers of an adapter's finish reason fields, made once per adapter. */
const markerCache = new WeakMap<ProtocolAdapter, FieldMarker[]>();

function getMarkers(adapter: ProtocolAdapter): FieldMarker[] {
  let markers = markerCache.get(adapter);
  if (!markers) markerCache.set(adapter, (markers = (adapter.finishReasonFields ?? []).map(defineFieldMarker)));
  return markers;
}

function skipSpaces(bytes: Buffer, at: number): number {
  while (at < bytes.length && (bytes[at] === 0x20 || bytes[at] === 0x0a || bytes[at] === 0x0d || bytes[at] === 0x09)) at++;
  return at;
}

/**
 * `into` with the finish reasons that `bytes` (a JSON answer, or complete lines of an event stream) state in
 * the adapter's finish reason fields (`"finish_reason": "stop"`...), in order, by byte search (no parse): a
 * `null` reason (a stream's earlier events) is skipped, as is a field name inside a JSON string (escaped) and a
 * value with escapes. Bounded: {@link MAX_REASONS} reasons of at most {@link MAX_REASON_LENGTH} characters.
 * Returns `into` (made when the first reason is found; undefined while none was).
 */
export function readFinishReasons(bytes: Buffer, adapter: ProtocolAdapter, into?: string[]): string[] | undefined {
  for (const marker of getMarkers(adapter)) {
    const length = marker.quoted.length;
    for (let at = findField(bytes, marker); at !== -1 && (into?.length ?? 0) < MAX_REASONS; at = findField(bytes, marker, at + length)) {
      if (at > 0 && bytes[at - 1] === BACKSLASH) continue;
      let i = skipSpaces(bytes, at + length);
      if (bytes[i] !== COLON) continue;
      i = skipSpaces(bytes, i + 1);
      if (bytes[i] !== QUOTE) continue;
      const end = bytes.indexOf(QUOTE, i + 1);
      if (end === -1 || end - i - 1 > MAX_REASON_LENGTH || bytes.subarray(i + 1, end).includes(BACKSLASH)) continue;
      (into ??= []).push(bytes.toString('utf8', i + 1, end));
    }
  }
  return into;
}
