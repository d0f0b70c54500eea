/**
 * Picks one target by weight: a target of weight 3 is chosen three times as often as one of weight 1.
 * `random` returns a number in [0, 1) (Math.random, or a seeded generator in tests). Targets of weight 0
 * or less are never picked while a target of positive weight exists; returns undefined for an empty list.
 */
export function pickTarget<T extends { weight: number }>(targets: readonly T[], random: () => number): T | undefined {
  const index = pickWeightedIndex(targets, random);
  return index < 0 ? undefined : targets[index];
}

/** The index {@link pickTarget} would pick (-1 for an empty list; 0 when no weight is positive). */
export function pickWeightedIndex(targets: readonly { weight: number }[], random: () => number): number {
  if (targets.length <= 1) return targets.length - 1;
  let total = 0;
  for (const target of targets) if (target.weight > 0) total += target.weight;
  if (total <= 0) return 0;
  let point = random() * total;
  let lastPositive = 0;
  for (let i = 0; i < targets.length; i++) {
    const weight = targets[i].weight;
    if (weight <= 0) continue;
    if (point < weight) return i;
    point -= weight;
    lastPositive = i;
  }
  return lastPositive;
}
