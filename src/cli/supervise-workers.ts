import type { Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { createRestartCounter, type RestartPolicy } from './define-restart-policy.ts';

/** What the supervisor uses of node:cluster (a test passes a stand-in). */
export interface WorkerCluster {
  fork(): Worker;
  on(event: 'exit', listener: (worker: Worker, code: number, signal: string) => void): unknown;
}

/** What {@link superviseWorkers} works with. */
export interface SuperviseOptions {
  logger: Logger;
  cluster: WorkerCluster;
  policy: RestartPolicy;
  /** Told once, when the stop starts (a signal, or a crash loop). */
  onStop?(): void;
  /** Ends the process (`process.exit`). */
  exit(code: number): void;
}

/** A primary's running workers: {@link superviseWorkers}. */
export interface WorkerSupervisor {
  /** Workers forked and not yet exited. */
  count(): number;
  /** Calls `onStop` and sends `signal` to every worker; the process exits once the last one has. */
  stop(signal: NodeJS.Signals): void;
}

/**
 * Forks `count` workers and keeps them running: a worker that dies is restarted after the policy's delay, a crash
 * loop stops every worker (exit code 1, a fatal log line). After {@link WorkerSupervisor.stop}, `exit` is called
 * once every worker has exited (0, or 1 if one of them exited otherwise). The workers are counted here, on their
 * 'exit' events: node:cluster keeps a worker in `cluster.workers` until its IPC channel's 'disconnect' too, which
 * may come after its 'exit', so a primary reading that list at the last 'exit' could wait forever.
 */
export function superviseWorkers(count: number, { logger, cluster, policy, onStop, exit }: SuperviseOptions): WorkerSupervisor {
  const running = new Set<Worker>();
  let stopping = false;
  let exitCode = 0;
  const fork = () => running.add(cluster.fork());
  for (let i = 0; i < count; i++) fork();
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    onStop?.();
    for (const worker of running) worker.process.kill(signal);
    if (running.size === 0) exit(exitCode);
  };
  const countFailure = createRestartCounter(policy);
  cluster.on('exit', (worker, code, signal) => {
    running.delete(worker);
    if (!stopping && code !== 0) {
      const decision = countFailure();
      if (decision.restart) {
        logger.warn(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}): restarting it in ${decision.delayMs} ms`);
        setTimeout(() => stopping || fork(), decision.delayMs);
      } else {
        exitCode = 1;
        logger.fatal(`workers are failing in a loop (${decision.failures} failures within ${policy.windowMs / 1000} s, the last: ${signal ?? `code ${code}`}): giving up; the primary exits with code 1`);
        logger.flush();
        stop('SIGTERM');
      }
      return;
    }
    if (stopping && code !== 0) exitCode = 1;
    if (stopping && running.size === 0) exit(exitCode);
  });
  return { count: () => running.size, stop };
}
