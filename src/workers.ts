import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { handleSignals } from './cli/handle-signals.ts';

/**
 * Runs `count` worker processes sharing the listening port (node:cluster). Returns true in the primary,
 * which only supervises: it restarts a worker that dies, forwards SIGINT/SIGTERM so each worker drains,
 * and exits once every worker has (0, or 1 if a worker's drain failed); SIGHUP calls `hangup` (the reload,
 * which the primary compiles once and sends to every worker: src/reload/share-with-workers.ts) or, without
 * `--config`, is logged as needing it. Each worker keeps its own in-memory limits: exact limits across
 * workers need `server.store` on Redis. `onStop` is told when the primary starts stopping (its admin
 * listener's /readyz then says so).
 */
export function runWorkers(count: number, logger: Logger, onStop?: () => void, hangup?: () => void): boolean {
  if (!cluster.isPrimary) return false;
  let stopping = false;
  let exitCode = 0;
  for (let i = 0; i < count; i++) cluster.fork();
  cluster.on('exit', (worker, code) => {
    if (!stopping && code !== 0) cluster.fork();
    if (stopping && code !== 0) exitCode = 1;
    if (stopping && Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
  });
  handleSignals(logger, (signal) => {
    stopping = true;
    onStop?.();
    logger.info(`${signal}: stopping ${Object.keys(cluster.workers ?? {}).length} worker(s)`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  }, hangup);
  return true;
}
