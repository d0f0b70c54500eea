import { countGroupRequests, type GroupTally } from './group-tally.ts';
import type { GroupSet } from './group-set.ts';
import { readGroup } from './read-group.ts';
import type { UsageGroup } from './usage-group.ts';

/**
 * At most this many groups per dimension in the overview (model names come from clients): the busiest
 * ones, the others summed as {@link OTHERS}. The overview's size is then bounded whatever the requests were.
 */
export const MAX_GROUPS = 20;
export const OTHERS = '(others)';
/**
 * How many names a set counts apart (twice what the overview shows, so it can show the busiest): the first
 * ones seen; a later name is counted in {@link OTHERS} until a group is let go (an hour without requests).
 */
export const TRACKED_GROUPS = 2 * MAX_GROUPS;

interface Listed {
  name: string;
  groups: GroupTally[];
  requests: number;
}

/**
 * The groups of `set` with requests in the hour ending at `now`, by name (`rename` may map several names to
 * one, counted as one group): when there are more than {@link MAX_GROUPS} (or some were counted in
 * `others`), only the busiest `MAX_GROUPS - 1` stay apart and the rest are folded into {@link OTHERS}.
 */
export function readGroupSet(set: GroupSet, now: number, rename: (name: string) => string = (name) => name): Record<string, UsageGroup> {
  const nowMinute = Math.floor(now / 60_000);
  const others: Listed = { name: OTHERS, groups: [set.others], requests: countGroupRequests(set.others, nowMinute) };
  const named = new Map<string, Listed>([[OTHERS, others]]);
  for (const [name, group] of set.named) {
    const requests = countGroupRequests(group, nowMinute);
    // A model named like the sum is summed with it.
    const shown = name === OTHERS ? OTHERS : rename(name);
    if (requests === 0 && shown !== OTHERS) continue;
    const entry = named.get(shown) ?? { name: shown, groups: [], requests: 0 };
    named.set(shown, entry);
    entry.groups.push(group);
    entry.requests += requests;
  }
  let listed = [...named.values()].filter((entry) => entry !== others);
  if (others.requests > 0 || listed.length > MAX_GROUPS) {
    listed.sort((a, b) => b.requests - a.requests || (a.name < b.name ? -1 : 1));
    for (const folded of listed.slice(MAX_GROUPS - 1)) others.groups.push(...folded.groups);
    listed = [...listed.slice(0, MAX_GROUPS - 1), others];
  }
  listed.sort((a, b) => (a.name < b.name ? -1 : 1));
  return Object.fromEntries(listed.map((entry) => [entry.name, readGroup(entry.groups, now)]));
}
