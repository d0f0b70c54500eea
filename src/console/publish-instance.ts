import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { ValueStore } from '../limits/store.ts';
import { INSTANCES_KEY, instanceKey, readInstanceIndex } from './instance-index.ts';
import { summarizeGroup, type UsageGroup } from './summarize-group.ts';
import type { UsageFeed } from './types.ts';

/** One gateway instance's last hour as it published it to the shared store. */
export interface InstanceOverview extends UsageGroup {
  /** `host/pid` of the process serving that instance's console. */
  id: string;
  /** When it was published (milliseconds since the epoch). */
  updatedAt: number;
}

/** How often an instance publishes, and how long a published overview (and its index entry) lives. */
export const PUBLISH_MS = 5000;
export const INSTANCE_TTL_MS = 20_000;

/** Publishes once: the overview under the instance's key, and the instance (with the live others) in the index. */
async function publish(values: ValueStore, id: string, feed: UsageFeed): Promise<void> {
  const now = Date.now();
  const total = summarizeGroup(feed.listRows().filter((row) => row.time >= now - 3_600_000), now);
  const overview: InstanceOverview = { id, updatedAt: now, ...total };
  await values.set([[instanceKey(id), JSON.stringify(overview)]], INSTANCE_TTL_MS);
  // The index is read, changed and written whole: when another instance's write replaced this one's, it is
  // written once more at once (and in any case at the next publish).
  for (let attempt = 0; attempt < 2; attempt++) {
    const index = await readInstanceIndex(values);
    if (attempt > 0 && index[id] === now) return;
    const live = Object.fromEntries(Object.entries(index).filter(([, time]) => time > now - INSTANCE_TTL_MS));
    await values.set([[INSTANCES_KEY, JSON.stringify({ ...live, [id]: now })]], INSTANCE_TTL_MS);
  }
}

/**
 * With several machines sharing Redis, each instance's console shows the others labelled (not summed):
 * every {@link PUBLISH_MS} the process serving the console publishes its last hour (in total, with the
 * per-minute series) under its id (`host/pid`), living {@link INSTANCE_TTL_MS}. Returns the id and `stop`.
 */
export function publishInstance(values: ValueStore, feed: UsageFeed, logger: Logger, id = `${hostname()}/${process.pid}`): { id: string; stop(): void } {
  let failing = false;
  const tick = () =>
    publish(values, id, feed).then(
      () => (failing = false),
      (error: Error) => {
        if (!failing) logger.warn({ err: error }, 'console: publishing this instance to the store failed');
        failing = true;
      },
    );
  void tick();
  const timer = setInterval(tick, PUBLISH_MS);
  timer.unref();
  return { id, stop: () => clearInterval(timer) };
}
