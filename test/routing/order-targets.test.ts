import { describe, expect, it } from 'vitest';
import type { ModelEntry, TargetEntry } from '../../src/config/types.ts';
import { orderTargets } from '../../src/routing/order-targets.ts';
import { createSeededRandom } from './seeded-random.ts';

const target = (vendor: string, weight: number, upstream = 'm'): TargetEntry => ({ vendor, upstream, weight });

function makeModel(targets: TargetEntry[], fallback: TargetEntry[] = []): ModelEntry {
  return {
    id: 'smart',
    targets,
    fallback,
    routing: { retries: 0, fallbackOn: [], cooldownAfter: 0, cooldownMs: 0 },
    chat: { defaultMaxTokens: 1024, strict: false },
    ownedBy: 'gateway',
  };
}

describe('orderTargets', () => {
  it('orders primaries by weighted pick, then fallbacks as listed without repeating a primary', () => {
    const a = target('a', 3);
    const b = target('b', 1);
    const model = makeModel([a, b], [target('c', 1), target('a', 1), target('d', 1)]);
    const firsts = new Map<string, number>();
    const random = createSeededRandom(1);
    for (let i = 0; i < 4000; i++) {
      const order = orderTargets(model, random).map((entry) => entry.vendor);
      expect(order.slice(2)).toEqual(['c', 'd']);
      expect([...order.slice(0, 2)].sort()).toEqual(['a', 'b']);
      firsts.set(order[0], (firsts.get(order[0]) ?? 0) + 1);
    }
    expect(firsts.get('a')! / 4000).toBeGreaterThan(0.7);
    expect(firsts.get('a')! / 4000).toBeLessThan(0.8);
  });

  it('returns the one target of a simple model as it is', () => {
    const model = makeModel([target('a', 1)]);
    expect(orderTargets(model, Math.random)).toBe(model.targets);
  });
});
