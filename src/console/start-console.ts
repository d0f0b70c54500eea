import type { Logger } from 'pino';
import type { CompiledConfig } from '../config/types.ts';
import type { ValueStore } from '../limits/store.ts';
import type { UsageSink } from '../runtime/handle-request.ts';
import type { Services } from '../runtime/services.ts';
import cluster from 'node:cluster';
import { createUsageFeed } from './create-usage-feed.ts';
import { publishInstance } from './publish-instance.ts';
import { readInstanceDetail } from './read-instance-detail.ts';
import { readInstances } from './read-instances.ts';
import { createOverrideStore } from './overrides/create-override-store.ts';
import { createEmptyOverrides, mergeOverrides } from './overrides/merge-overrides.ts';
import { startOverrideControl, type RunningOverrides } from './overrides/start-override-control.ts';
import type { ConsoleSources, Overrides, UsageFeed } from './types.ts';

/** What a serving process gives the playground: its environment (vendor secrets), its limits and its usage receivers. */
export interface PlaygroundSetup {
  getEnv(): NodeJS.ProcessEnv;
  services: Services;
  onUsage: UsageSink[];
}

/** The console's part of a serving process. */
export interface ConsoleRuntime {
  feed: UsageFeed;
  overrides: RunningOverrides;
  /** `config` (gateway.yaml's, compiled) with the overrides in force applied. */
  merge(config: CompiledConfig): CompiledConfig;
  /** The admin sources' console part over the gateway's config serving now and gateway.yaml's. */
  createSources(getServing: () => CompiledConfig, getBase: () => CompiledConfig, playground?: PlaygroundSetup): ConsoleSources;
}

/**
 * The instances sharing Redis: the process serving the console (not a --workers worker, whose rows go to its
 * primary) publishes its hour there, naming the models of the config serving now (others as `unknown`),
 * and lists and reads the others'.
 */
function readOtherInstances(values: ValueStore, feed: UsageFeed, logger: Logger, getServing: () => CompiledConfig): Pick<ConsoleSources, 'listInstances' | 'readInstance'> {
  if (cluster.isWorker) return {};
  const { id } = publishInstance(values, feed, logger, (name) => Object.hasOwn(getServing().models, name));
  return { listInstances: () => readInstances(values, id), readInstance: (other) => readInstanceDetail(values, other) };
}

/**
 * Starts the console's part of a serving process (`server.console: true`): the usage feed and the
 * overrides, read from `server.store` (Redis: `values`) or the file beside the config, before the gateway
 * serves (so a restart serves them at once), then polled. `onChange` is called when another process (or
 * this one) changed them: the caller swaps in a snapshot of `merge(gateway.yaml's config)`. On Redis, the
 * process serving the console publishes its last hour there, for the other instances' consoles (labelled).
 */
export async function startConsole(values: ValueStore | undefined, configDir: string, logger: Logger, onChange: () => void): Promise<ConsoleRuntime> {
  let current: Overrides = createEmptyOverrides();
  let started = false;
  const store = createOverrideStore(values, configDir);
  const overrides = await startOverrideControl(store, logger, (next) => {
    current = next;
    if (started) onChange();
  });
  started = true;
  const feed = createUsageFeed();
  return {
    feed,
    overrides,
    merge: (config) => mergeOverrides(config, current),
    createSources: (getServing, getBase, playground) => ({
      getConfig: getServing,
      getBaseConfig: getBase,
      feed,
      overrides,
      ...(values ? readOtherInstances(values, feed, logger, getServing) : {}),
      ...(playground
        ? {
            async runPlayground(value: Record<string, unknown>) {
              const { checkPlaygroundCall, runPlayground } = await import('./playground/run-playground.ts');
              const config = getServing();
              const env = playground.getEnv();
              return runPlayground(checkPlaygroundCall(value, config, env), { config, env, services: playground.services, onUsage: playground.onUsage });
            },
          }
        : {}),
    }),
  };
}
