import type { ValueStore } from '../limits/store.ts';
import { instanceKey, readInstanceIndex, type InstanceOverview } from './publish-instance.ts';

/** The most instances listed (the index is written by every instance; a bound keeps one read small). */
const MAX_INSTANCES = 50;

function isOverview(value: unknown): value is InstanceOverview {
  const overview = value as InstanceOverview;
  return typeof overview?.id === 'string' && typeof overview.updatedAt === 'number' && typeof overview.summary === 'object' && typeof overview.series === 'object';
}

/**
 * The instances sharing the store, as each last published itself (see publish-instance.ts), sorted by id:
 * `self` marks the one serving this console. A store that cannot be read lists none.
 */
export async function readInstances(values: ValueStore, selfId: string): Promise<(InstanceOverview & { self: boolean })[]> {
  try {
    const ids = Object.keys(await readInstanceIndex(values)).sort().slice(0, MAX_INSTANCES);
    const texts = await Promise.all(ids.map((id) => values.get(instanceKey(id))));
    return texts.flatMap((text) => {
      try {
        const overview: unknown = JSON.parse(text ?? 'null');
        return isOverview(overview) ? [{ ...overview, self: overview.id === selfId }] : [];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}
