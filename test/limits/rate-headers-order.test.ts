import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration, getRateHeaders } from '../../src/limits/rate-headers.ts';
import type { AdmitResult, WindowState } from '../../src/limits/store.ts';

/** The headers as getRateHeaders made them before its object literals (one window after the other, keys added by name): the reference. */
function getReferenceHeaders(result: AdmitResult): Record<string, string> {
  const headers: Record<string, string> = {};
  const add = (unit: string, state: WindowState) => {
    headers[`x-ratelimit-limit-${unit}`] = String(state.limit);
    headers[`x-ratelimit-remaining-${unit}`] = String(state.remaining);
    headers[`x-ratelimit-reset-${unit}`] = formatDuration(Math.max(0, Math.round(state.resetSeconds * 1000)));
  };
  if (result.requests) add('requests', result.requests);
  if (result.tokens) add('tokens', result.tokens);
  return headers;
}

const count = fc.oneof(fc.nat(), fc.constantFrom(1_000_000_000, 1_000_000_000_000, 0), fc.double({ min: 0, max: 1e13, noNaN: true }));
const window = fc.record({ allowed: fc.boolean(), limit: count, remaining: count, resetSeconds: fc.oneof(fc.double({ min: -1, max: 1e5, noNaN: true }), fc.constantFrom(0, 60, 0.0205)) });
const result = fc.record(
  { verdict: fc.constantFrom('ok', 'rpm', 'tpm', 'concurrency'), requests: window, tokens: window, concurrency: fc.record({ limit: fc.nat(), inUse: fc.nat() }) },
  { requiredKeys: ['verdict'] },
) as fc.Arbitrary<AdmitResult>;

describe('the rate-limit headers of an admission', () => {
  it('are the same names, values and order (requests before tokens, limit, remaining, reset) as one window added after the other', () => {
    fc.assert(
      fc.property(fc.array(result, { minLength: 1, maxLength: 5 }), (results) => {
        // Several in a row: the texts kept from one result are those of the next one's equal values only.
        for (const admit of results) expect(Object.entries(getRateHeaders(admit))).toEqual(Object.entries(getReferenceHeaders(admit)));
      }),
      { numRuns: 500 },
    );
  });
});
