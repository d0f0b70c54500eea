import { describe, expect, it } from 'vitest';
import type { TargetEntry } from '../../src/config/types.ts';
import { pickTarget, pickWeightedIndex } from '../../src/routing/pick-target.ts';

const target = (vendor: string, weight: number): TargetEntry => ({ vendor, upstream: 'm', weight });

describe('pickTarget at the edges', () => {
  it('a single target is always picked, whatever its weight', () => {
    expect(pickTarget([target('only', 1)], () => 0.7)?.vendor).toBe('only');
    expect(pickTarget([target('only', 0)], () => 0.7)?.vendor).toBe('only');
    expect(pickWeightedIndex([], () => 0.7)).toBe(-1);
  });

  it('a point exactly on a boundary belongs to the next target', () => {
    const targets = [target('a', 1), target('b', 1), target('c', 2)];
    expect(pickTarget(targets, () => 0.25)?.vendor).toBe('b');
    expect(pickTarget(targets, () => 0.5)?.vendor).toBe('c');
  });

  it('targets of weight 0 take no share of the range', () => {
    const targets = [target('off', 0), target('a', 1), target('off2', 0), target('b', 1)];
    expect(pickTarget(targets, () => 0)?.vendor).toBe('a');
    expect(pickTarget(targets, () => 0.49)?.vendor).toBe('a');
    expect(pickTarget(targets, () => 0.5)?.vendor).toBe('b');
    expect(pickTarget([target('neg', -5), target('a', 1)], () => 0)?.vendor).toBe('a');
  });

  it('when no weight is positive the first target is picked', () => {
    expect(pickTarget([target('a', 0), target('b', 0)], () => 0.9)?.vendor).toBe('a');
    expect(pickTarget([target('a', -1), target('b', 0)], () => 0.9)?.vendor).toBe('a');
  });

  it('a point that rounding pushes past the last weight picks the last target of positive weight', () => {
    // 0.9999999999999999 * 0.8 - 0.1 - 0.1 is not below 0.6 in floating point: the loop runs out.
    const targets = [target('a', 0.1), target('b', 0.1), target('c', 0.6), target('off', 0)];
    expect(pickWeightedIndex(targets, () => 0.9999999999999999)).toBe(2);
  });
});
