/**
 * A vendor's image usage counts are input like any other: whatever each part of a (split or single) image
 * request reports as usage (strings, negatives, fractions, huge or non-finite numbers, objects), the merged
 * usage (what the usage event, limits, spend and metrics read) holds only whole, non-negative, safe counts:
 * the sum of the parts' well-formed counts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ImageOptions } from '../../src/config/types.ts';
import { generateImages } from '../../src/images/generate.ts';
import type { ImageBackend, ImageRequest } from '../../src/images/types.ts';
import type { OpCall, Usage } from '../../src/runtime/types.ts';

const options: ImageOptions = { shape: 'openai', maxN: 1, splitN: true, styleUnsupported: 'reject', rehost: false, b64FromUrl: true, b64Only: false, pollTimeoutMs: 1000 };
const request: ImageRequest = { vendorBody: { model: 'm', prompt: 'p', n: 3 }, n: 3, nSent: true, nParam: 'n', responseFormat: 'url' };
const call = { ctx: { signal: new AbortController().signal } } as unknown as OpCall;
const FIELDS = ['inputTokens', 'outputTokens', 'totalTokens'] as const;
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** A backend answering each part with the next of `usages` (as a vendor's readUsage would pass it on, unchecked). */
function answerWith(usages: unknown[]): ImageBackend {
  let part = 0;
  return {
    urlOnly: false,
    async generate() {
      const usage = usages[part++] as Usage | undefined;
      return { created: 1, data: [{ url: 'u' }], extras: {}, usage, rawUsage: usage === undefined ? undefined : { input_tokens: (usage as any)?.inputTokens } };
    },
  };
}

const oddValue = fc.oneof(
  fc.nat(), fc.integer(), fc.double(), fc.constantFrom(Number.NaN, Infinity, -Infinity, 1e300, Number.MAX_SAFE_INTEGER, -1, 0.5),
  fc.string(), fc.constant(null), fc.constant(undefined), fc.object(), fc.boolean(),
);
const oddUsage = fc.option(fc.record({ inputTokens: oddValue, outputTokens: oddValue, totalTokens: oddValue }, { requiredKeys: [] }), { nil: undefined });

describe('image usage from the vendor', () => {
  it('sums only well-formed counts, split or single, whatever the parts report', async () => {
    await fc.assert(fc.asyncProperty(fc.array(oddUsage, { minLength: 1, maxLength: 3 }), async (usages) => {
      const parts = usages.map(() => 1);
      const batch = await generateImages(call, answerWith(usages), request, options, parts.length === 1 ? [undefined] : parts);
      if (usages.every((usage) => usage === undefined)) {
        expect(batch.usage).toBeUndefined();
        return;
      }
      for (const field of FIELDS) {
        const counts = usages.map((usage) => (usage as any)?.[field]).filter(isCount);
        const sum = counts.reduce((a, b) => a + b, 0);
        expect(batch.usage![field]).toBe(counts.length === 0 || !isCount(sum) ? undefined : sum);
      }
      for (const value of Object.values(batch.usage!)) expect(isCount(value)).toBe(true);
      // A single call's own usage object goes back to the client as it came; a split request's is a sum.
      if (parts.length > 1) for (const value of Object.values(batch.rawUsage ?? {})) expect(isCount(value)).toBe(true);
    }), { numRuns: 300, seed: 20261124 });
  });

  it('a string count from one part is left out instead of turning the sum into text', async () => {
    const batch = await generateImages(call, answerWith([{ inputTokens: '5', outputTokens: 2 }, { inputTokens: 3, outputTokens: 2 }]), request, options, [1, 1]);
    expect(batch.usage).toEqual({ inputTokens: 3, outputTokens: 4 });
  });
});
