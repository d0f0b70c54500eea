import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkJsonBytes, MAX_JSON_DEPTH } from '../../src/runtime/json-bytes.ts';

/** The reference: brackets outside strings scanned byte by byte (a string that never closes ends the scan), deeper than the maximum or not. */
function isTooDeepReference(raw: Buffer): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i];
    if (inString) {
      if (byte === 0x5c) i++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x7b || byte === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (byte === 0x7d || byte === 0x5d) depth--;
  }
  return false;
}

function readCode(raw: Buffer): string | undefined {
  try {
    checkJsonBytes(raw);
    return undefined;
  } catch (error) {
    return (error as { code: string }).code;
  }
}

/** Bodies of brackets, quotes, escapes and letters, from a few openers to hundreds, nested or side by side. */
const piece = fc.constantFrom('{', '[', '}', ']', '"', '\\', 'a', '{"a":', '[[', ']]', '"{["', ' ');
const body = fc.oneof(
  fc.array(piece, { minLength: 1, maxLength: 400 }).map((parts) => parts.join('')),
  fc.tuple(fc.nat(200), fc.nat(200), fc.constantFrom('[', '{"k":'), fc.constantFrom(']', '}')).map(([open, close, o, c]) => `${o.repeat(open)}1${c.repeat(close)}`),
  fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify(value)),
);

describe('checkJsonBytes depth', () => {
  it('refuses exactly the UTF-8 bodies whose brackets outside strings nest too deep, however many brackets they hold', () => {
    fc.assert(
      fc.property(body, (text) => {
        const raw = Buffer.from(text);
        expect(readCode(raw)).toBe(isTooDeepReference(raw) ? 'json_too_deep' : undefined);
      }),
      { numRuns: 3000 },
    );
  });
});
