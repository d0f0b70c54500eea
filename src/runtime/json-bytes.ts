import { isUtf8 } from 'node:buffer';
import { GatewayError } from '../errors.ts';

/** Deepest nesting of objects and arrays a JSON body may have (translation and image code recurse over it). */
export const MAX_JSON_DEPTH = 128;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether a Content-Type names JSON: `application/json` or `application/*+json`, with no charset or a
 * UTF-8 one (RFC 8259: JSON exchanged between systems is UTF-8).
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === 'application/json') return true;
  if (!header) return false;
  const lower = header.toLowerCase();
  const semi = lower.indexOf(';');
  const type = (semi === -1 ? lower : lower.slice(0, semi)).trim();
  if (type !== 'application/json' && !(type.startsWith('application/') && type.endsWith('+json'))) return false;
  if (semi === -1) return true;
  const charset = /(?:^|;)\s*charset\s*=\s*"?([^";\s]*)/.exec(lower.slice(semi));
  return !charset || charset[1] === 'utf-8' || charset[1] === 'utf8';
}

/** Whether a Content-Type names `multipart/form-data` (what a JSON route marked `multipart` also takes). */
export function isMultipartContentType(header: string | undefined): boolean {
  if (!header) return false;
  const semi = header.indexOf(';');
  return (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase() === 'multipart/form-data';
}

/** The 415 of a JSON route called with another content type. */
export function getUnsupportedMediaTypeError(header: string | undefined): GatewayError {
  const given = header ? `\`${header.slice(0, 100)}\`` : 'none';
  return new GatewayError(415, 'unsupported_media_type', `This endpoint takes a JSON body with Content-Type \`application/json\` (got ${given}).`);
}

/**
 * Checks a JSON body's bytes before they are parsed: valid UTF-8 (else 400 `invalid_utf8`, so the vendor
 * never gets malformed text) and nesting within {@link MAX_JSON_DEPTH} (else 400 `json_too_deep`, so no
 * code after parsing can recurse too deeply). The depth scan jumps over strings with a native search.
 */
export function checkJsonBytes(raw: Buffer): void {
  if (!isUtf8(raw)) throw new GatewayError(400, 'invalid_utf8', 'The request body is not valid UTF-8.');
  if (raw.length > MAX_JSON_DEPTH && !hasFewOpeners(raw) && isTooDeep(raw)) {
    throw new GatewayError(400, 'json_too_deep', `The request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels.`);
  }
}

/**
 * Bodies with at most this many `{` and `[` bytes in all (in strings too) nest no deeper than that, below
 * {@link MAX_JSON_DEPTH}: counted with a native search per bracket instead of scanned byte by byte.
 */
const COUNTED_OPENERS = 32;

/** Whether `raw` holds at most {@link COUNTED_OPENERS} bytes `{` and `[` (stops counting past it). */
function hasFewOpeners(raw: Buffer): boolean {
  let count = 0;
  for (let at = raw.indexOf(OPEN_BRACE, 0); at !== -1; at = raw.indexOf(OPEN_BRACE, at + 1)) if (++count > COUNTED_OPENERS) return false;
  for (let at = raw.indexOf(OPEN_BRACKET, 0); at !== -1; at = raw.indexOf(OPEN_BRACKET, at + 1)) if (++count > COUNTED_OPENERS) return false;
  return true;
}

/** Whether brackets outside strings nest deeper than {@link MAX_JSON_DEPTH} (malformed JSON is left to the parser). */
function isTooDeep(raw: Buffer): boolean {
  let depth = 0;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i];
    if (byte === QUOTE) {
      i = findStringEnd(raw, i);
      if (i === -1) return false;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** The index of the quote closing the string opened at `start`, or -1 when it never closes. */
function findStringEnd(raw: Buffer, start: number): number {
  let at = start;
  for (;;) {
    at = raw.indexOf(QUOTE, at + 1);
    if (at === -1) return -1;
    let slashes = 0;
    while (raw[at - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
}
