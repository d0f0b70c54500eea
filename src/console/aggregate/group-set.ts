import { createGroupTally, resetGroupTally, RING_MINUTES, type GroupTally } from './group-tally.ts';

/**
 * Groups by a name a client may choose (a model): at most `max` named, every other name counted in
 * `others`. A group with nothing in the last hour is let go (and its object reused) once a minute.
 */
export interface GroupSet {
  named: Map<string, GroupTally>;
  others: GroupTally;
  max: number;
  /** Groups let go, kept for the next new name (no allocation in the steady state). */
  spare: GroupTally[];
}

/** An empty set of at most `max` named groups. */
export function createGroupSet(max: number): GroupSet {
  return { named: new Map(), others: createGroupTally(), max, spare: [] };
}

/** The group of `name`: its own, a new one while there is room, else `others`. */
export function pickGroup(set: GroupSet, name: string): GroupTally {
  const found = set.named.get(name);
  if (found) return found;
  if (set.named.size >= set.max) return set.others;
  const group = set.spare.pop() ?? createGroupTally();
  set.named.set(name, group);
  return group;
}

/** Lets go of the groups with nothing in the hour ending with `nowMinute` (O(groups), run once a minute). */
export function sweepGroupSet(set: GroupSet, nowMinute: number): void {
  for (const [name, group] of set.named) {
    if (group.lastMinute > nowMinute - RING_MINUTES) continue;
    set.named.delete(name);
    resetGroupTally(group);
    set.spare.push(group);
  }
}
