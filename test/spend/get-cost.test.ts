import { describe, expect, it } from 'vitest';
import { getCost } from '../../src/spend/get-cost.ts';

const PRICE = { input: 2, output: 8, cachedInput: 0.5, cacheWrite: 2.5, reasoning: 10, image: 0.04, audioSecond: 0.001 };

describe('the cost of a usage', () => {
  it('is absent without a price', () => {
    expect(getCost({ inputTokens: 100, outputTokens: 10 }, undefined)).toBeUndefined();
  });

  it('prices input and output tokens per million', () => {
    expect(getCost({ inputTokens: 1_000_000, outputTokens: 500_000 }, { input: 2, output: 8 })).toBeCloseTo(6, 12);
  });

  it('takes cached and cache-write tokens out of the input count and prices them at their own rates', () => {
    const cost = getCost({ inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 600_000, cacheCreationInputTokens: 100_000 } as never, PRICE);
    expect(cost).toBeCloseTo(0.3 * 2 + 0.6 * 0.5 + 0.1 * 2.5, 12);
    expect(getCost({ inputTokens: 1_000_000, cachedInputTokens: 1_000_000 }, PRICE)).toBeCloseTo(0.5, 12);
  });

  it('takes reasoning tokens out of the output count', () => {
    expect(getCost({ outputTokens: 1_000_000, reasoningTokens: 250_000 }, PRICE)).toBeCloseTo(0.75 * 8 + 0.25 * 10, 12);
  });

  it('prices cached, cache-write and reasoning tokens at the input and output rates when they have none', () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 1_000_000, cachedInputTokens: 400_000, reasoningTokens: 300_000 };
    expect(getCost(usage, { input: 1, output: 3 })).toBeCloseTo(4, 12);
  });

  it('never counts more cached or reasoning tokens than the totals hold, and ignores bad counts', () => {
    expect(getCost({ inputTokens: 10, cachedInputTokens: 1_000_000, outputTokens: -4, reasoningTokens: Number.NaN }, PRICE)).toBeCloseTo(10 * 0.5e-6, 15);
  });

  it('prices images and audio seconds when the usage carries them', () => {
    expect(getCost({ images: 3, audioSeconds: 60 } as never, PRICE)).toBeCloseTo(0.12 + 0.06, 12);
    expect(getCost({ images: 3 } as never, { input: 1, output: 1 })).toBe(0);
  });
});
