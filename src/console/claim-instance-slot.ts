import type { ValueStore } from '../limits/store.ts';
import { getEpoch, MAX_INSTANCES, SLOT_TTL_MS, slotKey } from './instance-index.ts';

/**
 * Registers instance `id` in the epoch of `now` (see instance-index.ts): takes the lowest slot that is free
 * or already its own, each with one `SET NX`; an instance that lost a slot to another tries the next one.
 * Answers whether it holds one (false only when all {@link MAX_INSTANCES} slots are taken).
 */
export async function claimInstanceSlot(values: ValueStore, id: string, now = Date.now()): Promise<boolean> {
  const epoch = getEpoch(now);
  for (let n = 0; n < MAX_INSTANCES; n++) {
    if ((await values.keep(slotKey(epoch, n), id, SLOT_TTL_MS)) === id) return true;
  }
  return false;
}
