import type { ValueStore } from '../limits/store.ts';

/** The Redis key of the index of instances sharing the store: their ids and when each last published. */
export const INSTANCES_KEY = 'gateway:console:instances';

/** The Redis key of one instance's published overview. */
export const instanceKey = (id: string) => `gateway:console:instance:${id}`;

/** The index of instances as stored (a damaged or missing one is empty; entries that are not times are dropped). */
export async function readInstanceIndex(values: ValueStore): Promise<Record<string, number>> {
  let index: unknown;
  try {
    index = JSON.parse((await values.get(INSTANCES_KEY)) ?? '{}');
  } catch {
    return {};
  }
  if (!index || typeof index !== 'object' || Array.isArray(index)) return {};
  return Object.fromEntries(Object.entries(index).filter(([, time]) => typeof time === 'number' && Number.isFinite(time)));
}
