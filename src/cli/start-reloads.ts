import type { Logger } from 'pino';
import type { CompiledConfig } from '../config/types.ts';
import { createReloader, type Reloader } from '../reload/create-reloader.ts';
import { watchConfigFile, type ConfigWatch } from '../reload/watch-config.ts';

/** The reload triggers of `gateway start --config FILE`. */
export interface Reloads {
  reloader: Reloader;
  /** The SIGHUP handler. */
  hangup(): void;
  /** Stops the file watch (at shutdown). */
  close(): void;
}

/** Options of {@link startReloads}. */
export interface ReloadsOptions {
  file: string;
  /** Also reload when the file's content changes (`--watch`). */
  watch: boolean;
  apply(config: CompiledConfig): number | Promise<number>;
  getGeneration(): number;
  logger: Logger;
  onReload?(outcome: 'ok' | 'failed', generation: number): void;
  /** The quiet time a burst of file events must end with before the reload (default 300 ms). */
  debounceMs?: number;
}

/**
 * Makes the reloader of the config file and its triggers: SIGHUP (the returned `hangup`) and, with `watch`, a
 * debounced watch of the file. The admin API's `POST /admin/reload` calls `reloader` too (src/admin/reload-route.ts).
 */
export async function startReloads(options: ReloadsOptions): Promise<Reloads> {
  const reloader = createReloader(options);
  let watch: ConfigWatch | undefined;
  if (options.watch) {
    watch = await watchConfigFile(options.file, () => void reloader.reload('file changed'), options.debounceMs);
    options.logger.info(`watching ${options.file}: a change reloads it`);
  }
  return {
    reloader,
    hangup: () => void reloader.reload('SIGHUP'),
    close: () => watch?.close(),
  };
}
