import cluster, { type Worker } from 'node:cluster';
import type { CompiledConfig } from '../config/types.ts';

/** A config the primary gives its workers, with the generation every worker numbers it with. */
export interface SharedConfig {
  config: CompiledConfig;
  generation: number;
}

/** The IPC messages: a worker asks for the config once it listens for it; the primary sends one per reload. */
const ASK = 'gateway:config?';
const GIVE = 'gateway:config';

interface GiveMessage extends SharedConfig {
  type: typeof GIVE;
}

/**
 * The primary's side (`gateway start --config FILE --workers N`): the config is compiled once, in the primary, and
 * sent to every worker, at its start (a worker restarted after a crash gets the config serving now, not the file
 * as it is now) and at each reload. Returns `apply`, which numbers a new config's generation and sends it, and
 * `getConfig`, the config serving now (the primary's admin listener reads its admin keys there).
 */
export function shareConfigWithWorkers(initial: CompiledConfig): { apply(config: CompiledConfig): number; getGeneration(): number; getConfig(): CompiledConfig } {
  let latest: GiveMessage = { type: GIVE, config: initial, generation: 1 };
  const ready = new Set<Worker>();
  const send = (worker: Worker) => {
    if (worker.isConnected()) worker.send(latest, undefined, () => undefined);
  };
  cluster.on('message', (worker, message: { type?: string }) => {
    if (message?.type !== ASK) return;
    ready.add(worker);
    send(worker);
  });
  cluster.on('exit', (worker) => ready.delete(worker));
  return {
    apply(config) {
      latest = { type: GIVE, config, generation: latest.generation + 1 };
      for (const worker of ready) send(worker);
      return latest.generation;
    },
    getGeneration: () => latest.generation,
    getConfig: () => latest.config,
  };
}

/**
 * A worker's side: asks the primary for the config and resolves with the first one; `onReload` then receives
 * every later one (one that arrived before `onReload` was set is passed to it at once).
 */
export function receiveConfigFromPrimary(): { first: Promise<SharedConfig>; onReload(apply: (shared: SharedConfig) => void): void } {
  let resolveFirst: (shared: SharedConfig) => void;
  const first = new Promise<SharedConfig>((resolve) => (resolveFirst = resolve));
  let received = false;
  let waiting: SharedConfig | undefined;
  let apply: ((shared: SharedConfig) => void) | undefined;
  process.on('message', (message: GiveMessage) => {
    if (message?.type !== GIVE) return;
    const shared = { config: message.config, generation: message.generation };
    if (!received) {
      received = true;
      resolveFirst(shared);
    } else if (apply) apply(shared);
    else waiting = shared;
  });
  process.send!({ type: ASK });
  return {
    first,
    onReload(receive) {
      apply = receive;
      if (waiting) receive(waiting);
      waiting = undefined;
    },
  };
}
