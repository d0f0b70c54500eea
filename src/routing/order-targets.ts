import type { ModelEntry, TargetEntry } from '../config/types.ts';
import { pickWeightedIndex } from './pick-target.ts';

/**
 * The targets of a model in the order they are tried: the primary targets in weighted random order (the
 * first one picked by weight, the next by weight among the rest, …), then the fallbacks as listed. A
 * fallback equal to a primary (same vendor and upstream) is not tried twice. Targets in cooldown are
 * skipped later, when their turn comes (see `runAttempts`), so that a probe is granted only to a target
 * that is really tried.
 */
export function orderTargets(model: ModelEntry, random: () => number): readonly TargetEntry[] {
  const { targets, fallback } = model;
  if (targets.length <= 1 && fallback.length === 0) return targets;
  const rest = targets.slice();
  const order: TargetEntry[] = [];
  while (rest.length > 0) {
    const index = pickWeightedIndex(rest, random);
    order.push(rest[index]);
    rest.splice(index, 1);
  }
  for (const target of fallback) {
    if (!order.some((seen) => seen.vendor === target.vendor && seen.upstream === target.upstream)) order.push(target);
  }
  return order;
}
