import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { ValueStore } from '../limits/store.ts';
import { claimInstanceSlot } from './claim-instance-slot.ts';
import { describeInstance } from './describe-instance.ts';
import { getEpoch, instanceDetailKey, instanceKey } from './instance-index.ts';
import type { UsageFeed } from './types.ts';

/** How often an instance publishes, and how long a published overview lives. */
export const PUBLISH_MS = 5000;
export const INSTANCE_TTL_MS = 20_000;
/**
 * With several machines sharing Redis, each instance's console shows the others labelled (not summed):
 * every {@link PUBLISH_MS} the process serving the console writes its last hour under its id (`host/pid`),
 * living {@link INSTANCE_TTL_MS}: in total (one value) and per style, per model with its latest rows
 * (another), in one transaction; and once per epoch it registers in the index (instance-index.ts).
 * Models gateway.yaml does not name are published as `unknown`. Returns the id and `stop`.
 */
export function publishInstance(values: ValueStore, feed: UsageFeed, logger: Logger, isKnownModel: (name: string) => boolean, id = `${hostname()}/${process.pid}`): { id: string; stop(): void } {
  let failing = false;
  let registered = -1;
  async function publish(): Promise<void> {
    const now = Date.now();
    const { total, detail } = describeInstance(id, feed, isKnownModel, now);
    await values.set([[instanceKey(id), total], [instanceDetailKey(id), detail]], INSTANCE_TTL_MS);
    if (registered !== getEpoch(now) && (await claimInstanceSlot(values, id, now))) registered = getEpoch(now);
  }
  const tick = () =>
    publish().then(
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
