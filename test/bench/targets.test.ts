import { describe, expect, it } from 'vitest';
import { describeTarget, judgeTarget } from '../../bench/targets.ts';

describe('bench targets', () => {
  it('passes a minimum ratio at or above it and fails below', () => {
    const target = { kind: 'min-ratio', ratio: 0.9 } as const;
    expect(judgeTarget(target, 1000, 900).pass).toBe(true);
    expect(judgeTarget(target, 1000, 899).pass).toBe(false);
    expect(describeTarget(target)).toBe('>= 0.9x');
  });

  it('passes a maximum ratio at or below it and fails above', () => {
    const target = { kind: 'max-ratio', ratio: 1.15 } as const;
    expect(judgeTarget(target, 100, 115).pass).toBe(true);
    expect(judgeTarget(target, 100, 116).pass).toBe(false);
  });

  it('allows a fixed amount over the base', () => {
    const target = { kind: 'max-over', amount: 100, unit: 'µs' } as const;
    expect(judgeTarget(target, 441, 541).pass).toBe(true);
    expect(judgeTarget(target, 441, 542).pass).toBe(false);
    expect(describeTarget(target)).toBe('<= base + 100 µs');
  });

  it('judges an absolute ceiling without a base', () => {
    const target = { kind: 'max-value', value: 3000, unit: 'ms' } as const;
    expect(judgeTarget(target, undefined, 2999).pass).toBe(true);
    expect(judgeTarget(target, undefined, 3000).pass).toBe(false);
    expect(describeTarget(target)).toBe('< 3,000 ms');
  });

  it('fails a ratio target when a value is missing or not a number', () => {
    expect(judgeTarget({ kind: 'min-ratio', ratio: 0.9 }, undefined, 100).pass).toBe(false);
    expect(judgeTarget({ kind: 'max-ratio', ratio: 1.15 }, 100, Number.NaN).pass).toBe(false);
    expect(judgeTarget({ kind: 'max-ratio', ratio: 1.15 }, 0, 1).pass).toBe(false);
  });
});
