import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { defineRestartPolicy, type RestartPolicy } from './cli/define-restart-policy.ts';
import { handleSignals } from './cli/handle-signals.ts';
import { superviseWorkers } from './cli/supervise-workers.ts';

/**
 * Runs `count` worker processes sharing the listening port (node:cluster). Returns true in the primary,
 * which only supervises (src/cli/supervise-workers.ts: restarts with a growing delay, a crash loop exits 1),
 * forwards SIGINT/SIGTERM so each worker drains, and exits once every worker has (0, or 1 if a worker's drain
 * failed); SIGHUP calls `hangup` (the reload, which the primary compiles once and sends to every worker:
 * src/reload/share-with-workers.ts) or, without `--config`, is logged as needing it. Each worker keeps its own
 * in-memory limits: exact limits across workers need `server.store` on Redis. `onStop` is told when the primary
 * starts stopping (its admin listener's /readyz then says so).
 */
export function runWorkers(count: number, logger: Logger, onStop?: () => void, hangup?: () => void, policy: RestartPolicy = defineRestartPolicy(count)): boolean {
  if (!cluster.isPrimary) return false;
  const workers = superviseWorkers(count, { logger, cluster, policy, onStop, exit: (code) => process.exit(code) });
  handleSignals(logger, (signal) => {
    logger.info(`${signal}: stopping ${workers.count()} worker(s)`);
    workers.stop(signal);
  }, hangup);
  return true;
}
