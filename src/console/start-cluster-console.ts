import type { Logger } from 'pino';
import type { CompiledConfig } from '../config/types.ts';
import { createRedisStore } from '../limits/redis-store.ts';
import { receiveWorkerUsage } from './forward-usage.ts';
import { startConsole } from './start-console.ts';
import type { ConsoleSources } from './types.ts';

/**
 * The console of a `--workers` primary (it serves the admin listener, the workers serve requests): the
 * overrides, read and written in `server.store` like a worker's (a Redis connection of its own, or the file
 * beside the config; the workers poll them and apply them), and the usage rows every worker sends it.
 * `getBase` is read on every call: the config serving now (the one the primary last compiled and sent to its
 * workers, after a reload too), so the Models and Keys pages follow reloads; `getConfig` is it with the overrides applied.
 */
export async function startClusterConsole(getBase: () => CompiledConfig, env: NodeJS.ProcessEnv, configDir: string, logger: Logger): Promise<ConsoleSources> {
  const { store } = getBase().server;
  const url = store.kind === 'redis' ? env[store.env] : undefined;
  if (store.kind === 'redis' && !url) throw new Error(`server.store names env:${store.env}, which is not set`);
  const values = url ? (await createRedisStore({ url, failOpen: true, log: logger })).values : undefined;
  const runtime = await startConsole(values, configDir, logger, () => undefined);
  receiveWorkerUsage(runtime.feed);
  return runtime.createSources(() => runtime.merge(getBase()), getBase);
}
