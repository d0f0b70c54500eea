import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatJsonNumber, roundToMicroseconds } from '../../src/lib/format-json-number.ts';

describe('formatJsonNumber', () => {
  it('writes any number byte for byte as JSON.stringify does', () => {
    fc.assert(fc.property(fc.double(), (value) => {
      expect(formatJsonNumber(value)).toBe(JSON.stringify(value));
    }), { numRuns: 20_000 });
  });

  it('writes durations rounded to the microsecond as JSON.stringify does (the fast path)', () => {
    const durations = fc.double({ min: 0, max: 1e12, noNaN: true }).map(roundToMicroseconds);
    fc.assert(fc.property(durations, (value) => {
      expect(formatJsonNumber(value)).toBe(JSON.stringify(value));
    }), { numRuns: 20_000 });
  });

  it('writes whole numbers and counts as JSON.stringify does, past V8 small integers too', () => {
    const wholes = fc.oneof(fc.integer({ min: 0, max: 2 ** 31 }), fc.maxSafeInteger(), fc.integer().map(Math.abs));
    fc.assert(fc.property(wholes, (value) => {
      expect(formatJsonNumber(value)).toBe(JSON.stringify(value));
    }), { numRuns: 20_000 });
  });

  it.each([
    [0, '0'], [-0, '0'], [0.001, '0.001'], [0.01, '0.01'], [0.1, '0.1'], [16.233, '16.233'], [16.23, '16.23'], [1.5, '1.5'],
    [999.999, '999.999'], [1795625341351, '1795625341351'], [0.0001, '0.0001'], [0.1 + 0.2, '0.30000000000000004'],
    [1e15, '1000000000000000'], [1e21, '1e+21'], [-1.5, '-1.5'], [Number.NaN, 'null'], [Number.POSITIVE_INFINITY, 'null'],
  ])('writes %s as %s', (value, text) => {
    expect(formatJsonNumber(value)).toBe(text);
  });
});

describe('roundToMicroseconds', () => {
  it('keeps three decimals at most', () => {
    expect(roundToMicroseconds(16.232875000001513)).toBe(16.233);
    expect(roundToMicroseconds(0.039845000002969755)).toBe(0.04);
    expect(roundToMicroseconds(12)).toBe(12);
  });
});
