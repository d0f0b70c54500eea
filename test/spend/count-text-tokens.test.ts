/**
 * The tokenizer counts in bounded pieces (src/spend/count-text-tokens.ts): a long run without spaces costs
 * the square of its length in one piece, so it is cut, and the event loop gets turns while a long text is
 * counted; ordinary text counts as the whole text does.
 */
import { countTokens } from 'gpt-tokenizer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countTextTokens, loadTokenizer, PIECE_CHARS } from '../../src/spend/count-text-tokens.ts';

const words = fc.array(fc.oneof(fc.constantFrom('the', 'gateway', 'counts', 'tokens,', 'naïve', '温度', '😀', 'x1', '(a)', 'end.\n'), fc.string({ minLength: 1, maxLength: 12 }).filter((w) => !/\s/.test(w))), { minLength: 300, maxLength: 900 });

describe('counting a text in pieces', () => {
  it('gives ordinary text longer than a piece the whole text\'s count (cuts fall before a word\'s space)', async () => {
    await fc.assert(fc.asyncProperty(words, async (list) => {
      const text = list.join(' ');
      expect(text.length).toBeGreaterThan(PIECE_CHARS);
      expect(await countTextTokens(text)).toBe(countTokens(text));
    }), { numRuns: 40 });
  });

  it('counts long runs without spaces (ASCII, CJK, emoji) as the whole run does, surrogate pairs kept whole', async () => {
    for (const run of ['x'.repeat(6_000), '温'.repeat(6_000), '😀'.repeat(2_501), `a${'😀'.repeat(1_000)}`]) {
      expect(await countTextTokens(run)).toBe(countTokens(run));
    }
  });

  it('lets other work run while a long text is counted (a callback queued after the count began runs before it ends)', async () => {
    await loadTokenizer();
    let turned = false;
    const counting = countTextTokens('温'.repeat(64_000)).then((tokens) => ({ tokens, turned }));
    setImmediate(() => (turned = true));
    expect(await counting).toEqual({ tokens: 64_000, turned: true });
  });
});
