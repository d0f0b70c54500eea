import { Pool } from 'undici';
import { describe, expect, it } from 'vitest';
import { createSnapshotKeeper } from '../../src/runtime/snapshot-keeper.ts';
import type { RuntimeVendor, Snapshot } from '../../src/runtime/types.ts';

/** A snapshot holding the given pools (only what the keeper reads: generation and vendors). */
function makeSnapshot(generation: number, pools: Record<string, Pool>): Snapshot {
  const vendors = new Map(Object.entries(pools).map(([name, dispatcher]) => [name, { dispatcher } as unknown as RuntimeVendor]));
  return { generation, vendors } as unknown as Snapshot;
}

const isClosed = (pool: Pool) => pool.closed;

describe('the snapshot keeper', () => {
  it('closes a pool only when no live snapshot holds it: shared across reloads, held by requests on old snapshots', () => {
    const kept = new Pool('http://127.0.0.1:9');
    const first = new Pool('http://127.0.0.1:9');
    const second = new Pool('http://127.0.0.1:9');
    const a = makeSnapshot(1, { kept, swapped: first });
    const keeper = createSnapshotKeeper(a);
    keeper.hold(a); // a request on generation 1
    const b = makeSnapshot(2, { kept, swapped: first }); // an unchanged reload: both pools kept
    keeper.swap(b);
    keeper.hold(b);
    const c = makeSnapshot(3, { kept, swapped: second }); // `swapped` replaced
    keeper.swap(c);
    expect(keeper.current()).toBe(c);
    expect(keeper.held()).toBe(2);
    keeper.release(b);
    expect(isClosed(first)).toBe(false); // still held by the request on generation 1
    keeper.release(a);
    expect(isClosed(first)).toBe(true);
    expect(isClosed(kept)).toBe(false);
    expect(isClosed(second)).toBe(false);
    expect(keeper.held()).toBe(0);
  });

  it('never closes the current snapshot\'s pools when its requests end, and closes all of them at closeAll', async () => {
    const pool = new Pool('http://127.0.0.1:9');
    const a = makeSnapshot(1, { pool });
    const keeper = createSnapshotKeeper(a);
    keeper.hold(a);
    keeper.hold(a);
    keeper.release(a);
    keeper.release(a);
    expect(isClosed(pool)).toBe(false);
    await keeper.closeAll();
    expect(isClosed(pool)).toBe(true);
  });

  it('closes a replaced pool at once when no request is on the old snapshot', () => {
    const old = new Pool('http://127.0.0.1:9');
    const keeper = createSnapshotKeeper(makeSnapshot(1, { v: old }));
    keeper.swap(makeSnapshot(2, { v: new Pool('http://127.0.0.1:9') }));
    expect(isClosed(old)).toBe(true);
  });
});
