import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellsOf, FIELDS, formatMs } from '../../../src/console/client/usage-cells.ts';

const ROW = { time: Date.UTC(2026, 10, 25, 4, 5, 6, 789), key: 'team-a', style: 'openai', model: 'gpt-4o', vendor: 'openai', status: 200, inputTokens: 12, outputTokens: 34, ttfbMs: 0.123456, durationMs: 41.987654, costUsd: 0.00012 };

describe('a usage row shown in the console', () => {
  it('shows its times rounded to a tenth of a millisecond, not as the raw float', () => {
    expect(cellsOf(ROW)).toEqual(['04:05:06.789', 'team-a', 'openai', 'gpt-4o', 'openai', '200', '12/34', '0.1', '42.0', '0.000120']);
    expect(cellsOf(ROW)).toHaveLength(FIELDS.length);
  });

  it('leaves a missing or non-numeric time blank (a row from another instance is not trusted)', () => {
    expect(cellsOf({ ...ROW, ttfbMs: undefined, durationMs: '<b>' })[7]).toBe('');
    expect(cellsOf({ ...ROW, ttfbMs: undefined, durationMs: '<b>' })[8]).toBe('');
    expect(formatMs(Number.NaN)).toBe('');
    expect(formatMs(Infinity)).toBe('');
  });

  it('writes any finite time as digits with one decimal', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e9, noNaN: true }), (ms) => {
        const text = formatMs(ms);
        expect(text).toMatch(/^\d+\.\d$/);
        expect(Math.abs(Number(text) - ms)).toBeLessThanOrEqual(0.05 + ms * 1e-12);
      }),
    );
  });
});
