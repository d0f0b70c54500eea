/** The token estimator of src/spend/estimate-tokens.ts: gpt-tokenizer counts, special-token text counted as text. */
import { countTokens } from 'gpt-tokenizer';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { estimateTextTokens, estimateTokens } from '../../src/spend/estimate-tokens.ts';

describe('estimateTextTokens', () => {
  test('counts with the tokenizer, 0 for no text', async () => {
    expect(await estimateTextTokens('hello world, how are you?')).toBe(countTokens('hello world, how are you?'));
    expect(await estimateTextTokens('')).toBe(0);
  });

  test('any text, special-token strings included, gives a count and never throws', async () => {
    await fc.assert(fc.asyncProperty(fc.oneof(fc.string(), fc.constant('<|endoftext|> <|im_start|>')), async (text) => {
      const tokens = await estimateTextTokens(text);
      expect(Number.isInteger(tokens) && tokens >= 0 && tokens <= text.length).toBe(true);
    }), { numRuns: 100 });
  });

  test('the byte rule is unchanged for its callers', () => {
    expect(estimateTokens(10)).toBe(3);
  });
});
