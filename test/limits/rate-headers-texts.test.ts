import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration, getRateHeaders } from '../../src/limits/rate-headers.ts';
import type { WindowState } from '../../src/limits/store.ts';

/** What the headers of one window say, written out from the state each time (no remembered text). */
function expectHeaders(unit: string, state: WindowState): Record<string, string> {
  return {
    [`x-ratelimit-limit-${unit}`]: String(state.limit),
    [`x-ratelimit-remaining-${unit}`]: String(state.remaining),
    [`x-ratelimit-reset-${unit}`]: formatDuration(state.resetSeconds * 1000),
  };
}

const windowState = fc.record({
  allowed: fc.boolean(),
  limit: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 2 ** 40 })),
  remaining: fc.integer({ min: 0, max: 2 ** 40 }),
  resetSeconds: fc.oneof(fc.constantFrom(60, 59.999, 0, 0.0004, 0.0006), fc.double({ min: -1, max: 7200, noNaN: true })),
});

describe('rate-limit header texts made once', () => {
  it('say what the state says, request after request, whatever limits and resets came before (past the text cache bound too)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ requests: windowState, tokens: fc.option(windowState, { nil: undefined }) }), { minLength: 1, maxLength: 700 }), (results) => {
        for (const { requests, tokens } of results) {
          expect(getRateHeaders({ verdict: 'ok', requests, tokens })).toEqual({ ...expectHeaders('requests', requests), ...(tokens ? expectHeaders('tokens', tokens) : {}) });
        }
      }),
      { numRuns: 60 },
    );
  });
});
