import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { createRestartCounter, defineRestartPolicy, type RestartPolicy } from './cli/define-restart-policy.ts';
import { handleSignals } from './cli/handle-signals.ts';

/**
 * Runs `count` worker processes sharing the listening port (node:cluster). Returns true in the primary,
 * which only supervises: it restarts a worker that dies (after a growing delay; a crash loop, `policy.maxFailures`
 * failures within its window, stops every worker and exits 1 with a fatal log line), forwards SIGINT/SIGTERM so each worker drains,
 * and exits once every worker has (0, or 1 if a worker's drain failed); SIGHUP calls `hangup` (the reload,
 * which the primary compiles once and sends to every worker: src/reload/share-with-workers.ts) or, without
 * `--config`, is logged as needing it. Each worker keeps its own in-memory limits: exact limits across
 * workers need `server.store` on Redis. `onStop` is told when the primary starts stopping (its admin
 * listener's /readyz then says so).
 */
export function runWorkers(count: number, logger: Logger, onStop?: () => void, hangup?: () => void, policy: RestartPolicy = defineRestartPolicy(count)): boolean {
  if (!cluster.isPrimary) return false;
  let stopping = false;
  let exitCode = 0;
  for (let i = 0; i < count; i++) cluster.fork();
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    onStop?.();
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
  };
  const countFailure = createRestartCounter(policy);
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping && code !== 0) {
      const decision = countFailure();
      if (decision.restart) {
        logger.warn(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}): restarting it in ${decision.delayMs} ms`);
        setTimeout(() => stopping || cluster.fork(), decision.delayMs);
      } else {
        exitCode = 1;
        logger.fatal(`workers are failing in a loop (${decision.failures} failures within ${policy.windowMs / 1000} s, the last: ${signal ?? `code ${code}`}): giving up; the primary exits with code 1`);
        logger.flush();
        stop('SIGTERM');
        return;
      }
    }
    if (stopping && code !== 0) exitCode = 1;
    if (stopping && Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
  });
  handleSignals(logger, (signal) => {
    logger.info(`${signal}: stopping ${Object.keys(cluster.workers ?? {}).length} worker(s)`);
    stop(signal);
  }, hangup);
  return true;
}
