/**
 * Tokens of a text by a real tokenizer (gpt-tokenizer, the o200k_base encoding of current OpenAI models),
 * loaded on first use: the tokenizer's tables cost memory and start-up time, and only requests that ask
 * for a count (count_tokens on a vendor without a counting endpoint) need them, never the serving path.
 * Special-token strings in the text (`<|endoftext|>`) count as plain text.
 *
 * A text is counted in pieces of at most {@link PIECE_CHARS} characters, and the event loop gets a turn
 * between groups of pieces: the tokenizer's merges cost the square of a word's length, so one long run
 * without spaces (64,000 CJK characters: 23 s) held every other request of the process. A piece ends
 * before a whitespace where there is one near its end, where the tokenizer splits words anyway, so the
 * count of ordinary text is the whole text's; a run longer than a piece is cut (a token or so per cut).
 */
type Counter = (text: string, options: { disallowedSpecial: Set<string> }) => number;

/** The longest piece counted at once. */
export const PIECE_CHARS = 1000;
/** Pieces counted between two turns of the event loop (a few milliseconds of work). */
const PIECES_PER_TURN = 16;
/** How far back from a piece's end a whitespace is looked for. */
const CUT_WINDOW = 200;

let loading: Promise<Counter> | undefined;
const PLAIN = { disallowedSpecial: new Set<string>() };

/** Loads the tokenizer now (a fraction of a second and about 70 MB, once) instead of at the first count. */
export function loadTokenizer(): Promise<Counter> {
  loading ??= import('gpt-tokenizer').then((module) => module.countTokens as Counter);
  return loading;
}

/** The number of tokens in `text`. */
export async function countTextTokens(text: string): Promise<number> {
  const count = await loadTokenizer();
  let total = 0;
  let pieces = 0;
  for (let start = 0; start < text.length; ) {
    const end = findPieceEnd(text, start);
    total += count(text.slice(start, end), PLAIN);
    start = end;
    if (++pieces % PIECES_PER_TURN === 0 && start < text.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return total;
}

/**
 * Where the piece from `start` ends: the text's end; else before a space that follows a word, near the
 * limit (the tokenizer starts a word with its space: the cut changes nothing); else at the limit, a
 * surrogate pair kept whole.
 */
function findPieceEnd(text: string, start: number): number {
  const limit = start + PIECE_CHARS;
  if (limit >= text.length) return text.length;
  for (let at = limit; at > limit - CUT_WINDOW; at--) if (text.charCodeAt(at) === SPACE && !isSpace(text.charCodeAt(at - 1))) return at;
  const code = text.charCodeAt(limit);
  return code >= 0xdc00 && code <= 0xdfff ? limit - 1 : limit;
}

const SPACE = 0x20;

function isSpace(code: number): boolean {
  return code === SPACE || code === 0x0a || code === 0x09 || code === 0x0d;
}
