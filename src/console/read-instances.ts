import type { ValueStore } from '../limits/store.ts';
import type { InstanceOverview } from './describe-instance.ts';
import { instanceKey, readInstanceIds } from './instance-index.ts';
import { parseStored, readFiniteNumber, readPublishedGroup } from './read-published-group.ts';

/** A published total (see describe-instance.ts) in the shape the page draws, or undefined when it is not one. */
export function readPublishedTotal(text: string | undefined): InstanceOverview | undefined {
  const value = parseStored(text);
  const group = readPublishedGroup(value);
  if (typeof value?.id !== 'string' || !group) return undefined;
  return { id: value.id.slice(0, 300), updatedAt: readFiniteNumber(value.updatedAt), ...group };
}

/**
 * The instances sharing the store, as each last published itself (see publish-instance.ts), sorted by id:
 * `self` marks the one serving this console. A store that cannot be read lists none.
 */
export async function readInstances(values: ValueStore, selfId: string): Promise<(InstanceOverview & { self: boolean })[]> {
  try {
    const ids = await readInstanceIds(values);
    const texts = await Promise.all(ids.map((id) => values.get(instanceKey(id))));
    return texts.flatMap((text, i) => {
      const overview = readPublishedTotal(text);
      // A value that names another id than its key's is not that instance's.
      return overview?.id === ids[i] ? [{ ...overview, self: overview.id === selfId }] : [];
    });
  } catch {
    return [];
  }
}
