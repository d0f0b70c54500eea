import type { ProtocolAdapter } from '../protocols/types.ts';

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** The usage field name needles, made once per adapter. */
const nameNeedles = new WeakMap<ProtocolAdapter, string[]>();

/**
 * The adapter's usage field names, each with its closing quote (`usage"`): what {@link findNullUsageCuts}
 * looks for with a string's native `indexOf`, which stops at each place the needle's first character
 * is: a quote is everywhere in JSON, a name's first letter seldom (the opening quote is checked where found).
 */
export function getUsageNameNeedles(adapter: ProtocolAdapter): string[] {
  let needles = nameNeedles.get(adapter);
  if (!needles) nameNeedles.set(adapter, (needles = adapter.usageFields.map((name) => `${name}"`)));
  return needles;
}

/**
 * The start and end pairs of the null usage members in `text` (`needles`: usage field names and closing quotes), in order
 * (undefined when none): `,"usage":null` (from its comma) before a `,` or `}`, or `"usage":null,` (to past its
 * comma and spaces) right after a `{`, spaces and tabs between (no line break: a cut stays on its line). Their
 * quotes follow a comma or a brace, so none is inside a JSON string (where every quote is escaped). Removing
 * one leaves its object valid; a lone `{"usage":null}` is left as it is.
 */
export function findNullUsageCuts(needles: string[], text: string): number[] | undefined {
  let cuts: number[] | undefined;
  for (const needle of needles) {
    for (let found = text.indexOf(needle, 1); found !== -1; found = text.indexOf(needle, found + needle.length)) {
      const at = found - 1;
      if (text.charCodeAt(at) !== QUOTE) continue;
      let end = skipSpaces(text, found + needle.length);
      if (text.charCodeAt(end) !== COLON) continue;
      end = skipSpaces(text, end + 1);
      if (!text.startsWith('null', end)) continue;
      end += 4;
      const previous = skipSpacesBack(text, at - 1);
      const before = text.charCodeAt(previous);
      const after = skipSpaces(text, end);
      const next = text.charCodeAt(after);
      if (before === COMMA && (next === COMMA || next === CLOSE_BRACE)) (cuts ??= []).push(previous, end);
      else if (before === OPEN_BRACE && next === COMMA) (cuts ??= []).push(at, skipSpaces(text, after + 1));
    }
  }
  return cuts && needles.length > 1 ? sortPairs(cuts) : cuts;
}

/** Start and end pairs ordered by their starts (the cuts of several field names). */
function sortPairs(pairs: number[]): number[] {
  const starts: number[] = [];
  for (let i = 0; i < pairs.length; i += 2) starts.push(i);
  starts.sort((a, b) => pairs[a] - pairs[b]);
  return starts.flatMap((i) => [pairs[i], pairs[i + 1]]);
}

/** The index of the first character at or after `at` that is no space or tab. */
function skipSpaces(text: string, at: number): number {
  while (isSpaceOrTab(text.charCodeAt(at))) at++;
  return at;
}

/** The index of the last character at or before `at` that is no space or tab (-1 when none). */
function skipSpacesBack(text: string, at: number): number {
  while (at >= 0 && isSpaceOrTab(text.charCodeAt(at))) at--;
  return at;
}

function isSpaceOrTab(code: number): boolean {
  return code === 0x20 || code === 0x09;
}
