import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatJsonNumber, formatWholeNumber, roundToMicroseconds } from '../../src/lib/format-json-number.ts';

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

describe('formatWholeNumber', () => {
  it('writes any number as String does: whole ones around every power of 1000 and multiple of a billion, fractions and negatives (left to String)', () => {
    const nearPowers = fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: -2, max: 2 })).map(([power, offset]) => 1000 ** power + offset);
    const nearBillions = fc.tuple(fc.integer({ min: 1, max: 9_007_199 }), fc.integer({ min: -3, max: 3 })).map(([k, d]) => k * 1e9 + d);
    const wholes = fc.oneof(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 0, max: 1e15 - 1 }), fc.maxSafeInteger(), nearPowers, nearBillions, fc.double(), fc.integer());
    fc.assert(
      fc.property(wholes, (value) => {
        expect(formatWholeNumber(value)).toBe(String(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it.each([[0], [999], [1000], [1001], [999_999_999], [1e15 - 1], [1e15], [-1], [1.5], [Number.NaN], [2 ** 53]])('writes %s as String does', (value) => {
    expect(formatWholeNumber(value)).toBe(String(value));
  });
});

describe('roundToMicroseconds', () => {
  it('keeps three decimals at most', () => {
    expect(roundToMicroseconds(16.232875000001513)).toBe(16.233);
    expect(roundToMicroseconds(0.039845000002969755)).toBe(0.04);
    expect(roundToMicroseconds(12)).toBe(12);
  });
});
