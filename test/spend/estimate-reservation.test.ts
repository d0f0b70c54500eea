import { describe, expect, it } from 'vitest';
import type { ModelEntry } from '../../src/config/types.ts';
import { estimateTokens } from '../../src/spend/estimate-tokens.ts';
import { estimateReservation } from '../../src/spend/estimate-reservation.ts';

function makeModel(price?: ModelEntry['price']): ModelEntry {
  return {
    id: 'm',
    targets: [{ vendor: 'v', upstream: 'm', weight: 1 }],
    fallback: [],
    routing: { retries: 0, fallbackOn: [], cooldownAfter: 3, cooldownMs: 1000 },
    chat: { defaultMaxTokens: 1000, strict: false },
    ownedBy: 'v',
    ...(price ? { price } : {}),
  };
}

describe('a request reservation', () => {
  it('is the prompt estimate plus the output cap the body names, in each style', () => {
    const model = makeModel();
    const input = estimateTokens(400);
    expect(estimateReservation('chat', model, { max_tokens: 50 }, 400)).toEqual({ tokens: input + 50, costUsd: 0 });
    expect(estimateReservation('chat', model, { max_completion_tokens: 70, max_tokens: 50 }, 400).tokens).toBe(input + 70);
    expect(estimateReservation('responses', model, { max_output_tokens: 30 }, 400).tokens).toBe(input + 30);
    expect(estimateReservation('generate-content', model, { generationConfig: { maxOutputTokens: 20 } }, 400).tokens).toBe(input + 20);
    expect(estimateReservation('messages', model, { max_tokens: 10 }, 400).tokens).toBe(input + 10);
  });

  it("uses the model's default output cap when the body names none, times the choices n", () => {
    expect(estimateReservation('chat', makeModel(), { n: 3, max_tokens: 'many' }, 0).tokens).toBe(3000);
  });

  it('reserves no output for operations that generate no text, and nothing without a JSON body', () => {
    expect(estimateReservation('embeddings', makeModel(), { input: 'x' }, 400).tokens).toBe(estimateTokens(400));
    expect(estimateReservation('chat', makeModel(), undefined, 400)).toEqual({ tokens: 0, costUsd: 0 });
  });

  it('prices the bound at the highest rates of input and output, and images at n x the image price', () => {
    const model = makeModel({ input: 1, output: 2, cacheWrite: 3, reasoning: 5, image: 0.5 });
    const { tokens, costUsd } = estimateReservation('chat', model, { max_tokens: 1_000_000 }, 4_000_000);
    expect(tokens).toBe(2_000_000);
    expect(costUsd).toBeCloseTo(3 + 5, 9);
    expect(estimateReservation('images-generations', model, { n: 2 }, 0).costUsd).toBeCloseTo(1, 9);
  });
});
