/** The bytes at the end of an answer looked at (a usage object and what follows it fit many times over). */
const TAIL_BYTES = 2048;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN = 0x7b;

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function skipSpaces(text: string, at: number): number {
  while (isSpace(text.charCodeAt(at))) at++;
  return at;
}

/** Index of the last `"name"` in `text` (`text.lastIndexOf('"name"')`, searched forward from the name's first letter: a quote is everywhere in JSON). */
function findLastName(text: string, name: string): number {
  const needle = `${name}"`;
  let last = -1;
  for (let at = text.indexOf(needle, 1); at !== -1; at = text.indexOf(needle, at + 1)) {
    if (text.charCodeAt(at - 1) === QUOTE) last = at - 1;
  }
  return last;
}

/**
 * The end (index of its `}`) of the object opened at `open`, judged by its braces alone: strings are not
 * skipped, so a brace inside one can make it wrong, which the parse of the object's text then refuses.
 * -1 when the braces never close.
 */
function guessObjectEnd(text: string, open: number): number {
  let depth = 1;
  let nextOpen = text.indexOf('{', open + 1);
  for (let at = open + 1; ; ) {
    const close = text.indexOf('}', at);
    if (close === -1) return -1;
    for (; nextOpen !== -1 && nextOpen < close; nextOpen = text.indexOf('{', nextOpen + 1)) depth++;
    if (--depth === 0) return close;
    at = close + 1;
  }
}

/**
 * The object under the last field `name` of a JSON answer (`"name": {...}`), read from the answer's last
 * {@link TAIL_BYTES} bytes decoded once, with string searches, and the object's text alone parsed. The same
 * value as parsing the object found in the answer's bytes (readUsageFromJson of json-usage.ts): a text that
 * parses alone as one object from that `{` is that object whatever its end was guessed from. Undefined when
 * this cannot tell (the field not within those bytes, or first there; an escaped quote before it; no object
 * after it; a text that does not parse), and the caller reads the bytes instead.
 */
export function readTailObject(body: Buffer, name: string): unknown {
  // toString() with no arguments decodes UTF-8 at once, with no encoding looked up (most answers are short).
  const text = body.length <= TAIL_BYTES ? body.toString() : body.toString('utf8', body.length - TAIL_BYTES);
  const at = findLastName(text, name);
  if (at <= 0 || text.charCodeAt(at - 1) === BACKSLASH) return undefined;
  let open = skipSpaces(text, at + name.length + 2);
  if (text.charCodeAt(open) !== COLON) return undefined;
  open = skipSpaces(text, open + 1);
  if (text.charCodeAt(open) !== OPEN) return undefined;
  const end = guessObjectEnd(text, open);
  if (end === -1) return undefined;
  try {
    return JSON.parse(text.slice(open, end + 1));
  } catch {
    return undefined;
  }
}
