/**
 * Reading a stream event's text without parsing the whole event: most events of an answer are text
 * deltas that a vendor writes one way, and parsing each as JSON was most of a translated stream's
 * decoding. These read the few characters that matter in place; anything unexpected gives a "no" and the
 * caller parses the event in full.
 */

import type { StreamEvent } from './canonical.ts';

const QUOTE = 0x22;

/** What a stream event that carries nothing decodes to (shared: callers only read it). */
export const NO_EVENTS: readonly StreamEvent[] = Object.freeze([]);
const BACKSLASH = '\\';

/**
 * Whether `text` holds `part` at `at`. (Not `startsWith`: on the sliced strings the SSE parser gives,
 * Node 20's `startsWith` took about four times as long as comparing a slice.)
 */
export function hasTextAt(text: string, part: string, at: number): boolean {
  const end = at + part.length;
  return text.length >= end && text.slice(at, end) === part;
}

/** Where the run of ASCII digits that starts at `start` in `text` ends (`start` when there is none). */
export function skipDigits(text: string, start: number): number {
  let at = start;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code < 0x30 || code > 0x39) break;
    at++;
  }
  return at;
}

/**
 * The value of the JSON string literal that spans `text` from `start` (its opening quote) to `end`
 * (just after its closing quote), or undefined when that span is not exactly one string literal.
 */
export function readJsonString(text: string, start: number, end: number): string | undefined {
  if (end - start < 2 || text.charCodeAt(start) !== QUOTE || text.charCodeAt(end - 1) !== QUOTE) return undefined;
  const escape = text.indexOf(BACKSLASH, start);
  // A literal with no escape is its own text when no quote comes before its end.
  if (escape === -1 || escape >= end) return text.indexOf('"', start + 1) === end - 1 ? text.slice(start + 1, end - 1) : undefined;
  try {
    const value: unknown = JSON.parse(text.slice(start, end));
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether JSON.stringify writes `text` as it is between two quotes: printable characters, no quote, no
 * backslash, no surrogate (the usual stream text).
 */
export function isPlainText(text: string): boolean {
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) return false;
  }
  return true;
}

/**
 * `JSON.stringify(text)`, without its call for plain text (isPlainText): such text is quoted as it is.
 * Anything else goes through JSON.stringify.
 */
export function writeJsonString(text: string): string {
  return isPlainText(text) ? `"${text}"` : JSON.stringify(text);
}
