/**
 * Tokens of a text by a real tokenizer (gpt-tokenizer, the o200k_base encoding of current OpenAI models),
 * loaded on first use: the tokenizer's tables cost memory and start-up time, and only requests that ask
 * for a count (count_tokens on a vendor without a counting endpoint) need them, never the serving path.
 * Special-token strings in the text (`<|endoftext|>`) count as plain text.
 */
type Counter = (text: string, options: { disallowedSpecial: Set<string> }) => number;

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
  return text ? count(text, PLAIN) : 0;
}
