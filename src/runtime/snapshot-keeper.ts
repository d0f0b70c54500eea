import type { Dispatcher } from 'undici';
import type { Snapshot } from './types.ts';

/** The current snapshot, the requests on each snapshot, and the vendor pools they hold. */
export interface SnapshotKeeper {
  /** The snapshot new requests start on. */
  current(): Snapshot;
  /** Counts a request that started on `snapshot` (call {@link SnapshotKeeper.release} when it ends). */
  hold(snapshot: Snapshot): void;
  /** Ends a request counted by `hold`: the last request of a replaced snapshot closes the pools only it held. */
  release(snapshot: Snapshot): void;
  /** Makes `next` the current snapshot; the previous one is retired once its last request ends. */
  swap(next: Snapshot): void;
  /** Requests still counted on snapshots (tests and drains read it). */
  held(): number;
  /** Closes every pool still open (the gateway's close, after its drain). */
  closeAll(): Promise<void>;
}

function closePool(dispatcher: Dispatcher): void {
  // undici's close lets requests already on the pool finish and refuses new ones.
  dispatcher.close().catch(() => undefined);
}

/**
 * Keeps the snapshots of a gateway alive as long as a request uses them: each vendor pool is counted once per
 * live snapshot that holds it (unchanged vendors share one pool across reloads), and closes when no live
 * snapshot holds it any more: the current one never retires, a replaced one retires when its last request ends.
 */
export function createSnapshotKeeper(initial: Snapshot): SnapshotKeeper {
  let current = initial;
  const requests = new Map<Snapshot, number>();
  const retired = new Set<Snapshot>();
  const holders = new Map<Dispatcher, number>();
  let total = 0;

  const adopt = (snapshot: Snapshot) => {
    for (const { dispatcher } of snapshot.vendors.values()) holders.set(dispatcher, (holders.get(dispatcher) ?? 0) + 1);
  };
  const retire = (snapshot: Snapshot) => {
    retired.delete(snapshot);
    for (const { dispatcher } of snapshot.vendors.values()) {
      const left = (holders.get(dispatcher) ?? 1) - 1;
      if (left > 0) holders.set(dispatcher, left);
      else {
        holders.delete(dispatcher);
        closePool(dispatcher);
      }
    }
  };
  adopt(initial);
  return {
    current: () => current,
    hold(snapshot) {
      total++;
      requests.set(snapshot, (requests.get(snapshot) ?? 0) + 1);
    },
    release(snapshot) {
      const left = (requests.get(snapshot) ?? 1) - 1;
      total--;
      if (left > 0) {
        requests.set(snapshot, left);
        return;
      }
      requests.delete(snapshot);
      if (retired.has(snapshot)) retire(snapshot);
    },
    swap(next) {
      adopt(next);
      const previous = current;
      current = next;
      retired.add(previous);
      if (!requests.has(previous)) retire(previous);
    },
    held: () => total,
    async closeAll() {
      const pools = [...holders.keys()];
      holders.clear();
      await Promise.all(pools.map((dispatcher) => dispatcher.close().catch(() => undefined)));
    },
  };
}
