import { countTextTokens } from './count-text-tokens.ts';

/**
 * The gateway's one token estimator, for what a request may cost before a vendor counts it: a byte rule
 * (cheap: budget reservations, and the usage of a request that ended without the vendor's counts, see
 * runtime/estimate-usage.ts) and {@link estimateTextTokens}, a real tokenizer loaded on first use, which
 * answers count_tokens for vendors without a counting endpoint.
 */
export const BYTES_PER_TOKEN = 4;

/** Tokens estimated from a byte count of JSON or text: one per {@link BYTES_PER_TOKEN} bytes, rounded up. */
export function estimateTokens(bytes: number): number {
  return Math.ceil(bytes / BYTES_PER_TOKEN);
}

/** Tokens of a text by a real tokenizer (loaded on first use; see count-text-tokens.ts). */
export function estimateTextTokens(text: string): Promise<number> {
  return countTextTokens(text);
}
