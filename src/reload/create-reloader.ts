import type { Logger } from 'pino';
import type { CompiledConfig } from '../config/types.ts';
import { createCompileWorker, type WorkerAnswer } from './compile-in-worker.ts';

/** What a reload ended with: the generation serving afterwards, and the problems when it failed. */
export interface ReloadResult {
  outcome: 'ok' | 'failed';
  generation: number;
  /** Each as `file:line:col: message` (empty when the reload succeeded). */
  problems: string[];
}

/** Options of {@link createReloader}. */
export interface ReloaderOptions {
  /** The config file to compile again at each reload. */
  file: string;
  /** Serves a compiled config from now on and returns its generation (e.g. `gateway.reload`). */
  apply(config: CompiledConfig): number | Promise<number>;
  /** The generation serving now (reported when a reload fails). */
  getGeneration(): number;
  logger: Logger;
  /** Told each reload's outcome and the generation serving afterwards (metrics count them). */
  onReload?(outcome: 'ok' | 'failed', generation: number): void;
  /** Compiles the file (default: in a worker thread, src/reload/compile-in-worker.ts). */
  compile?(file: string): Promise<WorkerAnswer>;
}

/** Reloads a gateway's config from its file. */
export interface Reloader {
  file: string;
  /** Compiles the file and applies it; `trigger` (SIGHUP, watch, admin) is logged. Never throws. */
  reload(trigger: string): Promise<ReloadResult>;
}

/**
 * Makes the reloader of `gateway start --config FILE`: each reload compiles FILE off the request path and, when it
 * is clean, applies it; with problems the old config keeps serving and each problem is logged as
 * `file:line:col: message`. Reloads run one at a time: those asked for during one share the next run.
 */
export function createReloader(options: ReloaderOptions): Reloader {
  const { file, logger } = options;
  const compile = options.compile ?? createCompileWorker().compile;
  const fail = (problems: string[]): ReloadResult => {
    const generation = options.getGeneration();
    for (const problem of problems) logger.error(problem);
    logger.error(`reload of ${file} failed: generation ${generation} keeps serving`);
    return { outcome: 'failed', generation, problems };
  };
  const run = async (trigger: string): Promise<ReloadResult> => {
    logger.info(`reloading ${file} (${trigger})`);
    const { config, problems } = await compile(file);
    let result: ReloadResult;
    if (!config) result = fail(problems.length ? problems : [`${file}: no config`]);
    else {
      try {
        const generation = await options.apply(config);
        logger.info(`reloaded ${file}: generation ${generation} serves new requests`);
        result = { outcome: 'ok', generation, problems: [] };
      } catch (error) {
        result = fail([`${file}: ${(error as Error).message}`]);
      }
    }
    try {
      options.onReload?.(result.outcome, result.generation);
    } catch (error) {
      process.emitWarning(error as Error);
    }
    return result;
  };
  let running: Promise<ReloadResult> | undefined;
  let queued: Promise<ReloadResult> | undefined;
  const reload = (trigger: string): Promise<ReloadResult> => {
    if (!running) {
      running = run(trigger).finally(() => (running = undefined));
      return running;
    }
    queued ??= running.then(() => {
      queued = undefined;
      return reload(trigger);
    });
    return queued;
  };
  return { file, reload };
}
