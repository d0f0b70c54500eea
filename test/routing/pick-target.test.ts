import { describe, expect, it } from 'vitest';
import type { TargetEntry } from '../../src/config/types.ts';
import { pickTarget } from '../../src/routing/pick-target.ts';
import { createSeededRandom } from './seeded-random.ts';

const target = (vendor: string, weight: number, upstream = 'm'): TargetEntry => ({ vendor, upstream, weight });

describe('pickTarget', () => {
  it('picks targets in proportion to their weights within statistical bounds', () => {
    const targets = [target('a', 3), target('b', 1), target('c', 6)];
    const random = createSeededRandom(42);
    const counts = new Map<string, number>();
    const picks = 100_000;
    for (let i = 0; i < picks; i++) {
      const picked = pickTarget(targets, random)!;
      counts.set(picked.vendor, (counts.get(picked.vendor) ?? 0) + 1);
    }
    // 5 standard deviations of a binomial count: sqrt(n p (1 - p)).
    for (const [vendor, share] of [['a', 0.3], ['b', 0.1], ['c', 0.6]] as const) {
      const bound = 5 * Math.sqrt(picks * share * (1 - share));
      expect(Math.abs(counts.get(vendor)! - picks * share)).toBeLessThan(bound);
    }
  });

  it('never picks a target of weight 0 while another has weight', () => {
    const random = createSeededRandom(7);
    const targets = [target('off', 0), target('on', 1)];
    for (let i = 0; i < 1000; i++) expect(pickTarget(targets, random)!.vendor).toBe('on');
  });

  it('maps the ends of the random range to the first and last target', () => {
    const targets = [target('a', 1), target('b', 1)];
    expect(pickTarget(targets, () => 0)!.vendor).toBe('a');
    expect(pickTarget(targets, () => 0.999999999)!.vendor).toBe('b');
    expect(pickTarget([], () => 0.5)).toBeUndefined();
  });
});
