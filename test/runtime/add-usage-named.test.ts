import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addUsage, readTokenCount } from '../../src/runtime/json-usage.ts';
import type { Usage } from '../../src/runtime/types.ts';

/** The reference: every member stored through its computed name, in the usage's own order. */
function addUsageReference(into: Record<string, unknown>, usage: Record<string, unknown> | undefined): void {
  if (!usage) return;
  for (const name in usage) {
    const value = usage[name];
    const count = name === 'audioSeconds' ? (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined) : readTokenCount(value);
    if (count !== undefined) into[name] = count;
  }
  if (usage.totalTokens === undefined && into.inputTokens !== undefined && into.outputTokens !== undefined) {
    into.totalTokens = (into.inputTokens as number) + (into.outputTokens as number);
  }
}

const FIELDS = ['inputTokens', 'outputTokens', 'totalTokens', 'cachedInputTokens', 'cacheCreationInputTokens', 'reasoningTokens', 'audioSeconds', 'other', '0'];
const value = fc.oneof(fc.nat(), fc.integer(), fc.double(), fc.constant(undefined), fc.constant(null), fc.string());
/** An object of some of the fields (and others) in any order. */
const members = fc.shuffledSubarray(FIELDS).chain((names) => fc.tuple(...names.map((name) => value.map((v) => [name, v] as const))));

describe('addUsage', () => {
  it('leaves the same members, in the same order, as storing each through its computed name', () => {
    fc.assert(
      fc.property(members, fc.option(members, { nil: undefined }), (before, reported) => {
        const into = Object.fromEntries(before.filter(([, v]) => typeof v === 'number'));
        const expected = { ...into };
        const usage = reported && Object.fromEntries(reported);
        addUsage(into as Usage, usage as Usage | undefined);
        addUsageReference(expected, usage);
        expect(Object.entries(into)).toEqual(Object.entries(expected));
      }),
      { numRuns: 3000 },
    );
  });
});
