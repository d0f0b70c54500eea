import type { ValueStore } from '../limits/store.ts';

/**
 * Registration of the instances sharing the store, race-free with one Redis primitive (`SET NX` with a TTL,
 * the store's `keep`): time is cut into epochs of {@link EPOCH_MS}, and in each epoch every instance takes
 * the lowest free of the numbered slots `gateway:console:slot:<epoch>:<n>` (0, 1, 2, ...), holding its id.
 * `SET NX` gives a slot to one instance only, so racing instances take different slots and none is lost; and
 * since slots are taken lowest first, an epoch's slots are numbered without gaps. A reader lists the ids of
 * the current and the previous epoch: a stopped instance leaves within two epochs. Nothing is read,
 * changed and written back.
 */
export const EPOCH_MS = 10_000;

/** How long a slot lives: past the end of the next epoch, with room for clocks a few seconds apart. */
export const SLOT_TTL_MS = 30_000;

/** The most instances listed (slots of one epoch): a bound keeps a read small whatever the store holds. */
export const MAX_INSTANCES = 50;

/** Longest id read from the store (ids are `host/pid`). */
const MAX_ID = 300;

/** Slots read at once while listing. */
const BATCH = 10;

/** The Redis key of slot `n` of `epoch`. */
export const slotKey = (epoch: number, n: number) => `gateway:console:slot:${epoch}:${n}`;

/** The Redis key of one instance's published overview in total (listed by every console). */
export const instanceKey = (id: string) => `gateway:console:instance:${id}`;

/** The Redis key of one instance's published breakdowns and latest rows (read when a console shows it). */
export const instanceDetailKey = (id: string) => `gateway:console:instance-detail:${id}`;

/** The epoch of a time. */
export const getEpoch = (now: number) => Math.floor(now / EPOCH_MS);

/** The ids holding slots of `epoch`, read in batches until a free slot (ids as stored, cut to a sane length). */
async function readEpoch(values: ValueStore, epoch: number): Promise<string[]> {
  const ids: string[] = [];
  for (let first = 0; first < MAX_INSTANCES; first += BATCH) {
    const slots = Array.from({ length: Math.min(BATCH, MAX_INSTANCES - first) }, (_, i) => values.get(slotKey(epoch, first + i)));
    const held = await Promise.all(slots);
    const end = held.indexOf(undefined);
    for (const id of end === -1 ? held : held.slice(0, end)) ids.push(id!.slice(0, MAX_ID));
    if (end !== -1) break;
  }
  return ids;
}

/** The ids of the instances registered in the epoch of `now` or the one before, sorted (each once). */
export async function readInstanceIds(values: ValueStore, now = Date.now()): Promise<string[]> {
  const epoch = getEpoch(now);
  const [previous, current] = await Promise.all([readEpoch(values, epoch - 1), readEpoch(values, epoch)]);
  return [...new Set([...previous, ...current])].sort().slice(0, MAX_INSTANCES);
}
