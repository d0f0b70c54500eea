import cluster from 'node:cluster';

/**
 * Runs `count` worker processes sharing the listening port (node:cluster). Returns true in the primary,
 * which only supervises: it restarts a worker that dies and forwards SIGINT/SIGTERM so each worker
 * drains. Each worker keeps its own in-memory limits: exact limits across workers need `server.store`
 * on Redis.
 */
export function runWorkers(count: number): boolean {
  if (!cluster.isPrimary) return false;
  let stopping = false;
  for (let i = 0; i < count; i++) cluster.fork();
  cluster.on('exit', (worker, code) => {
    if (!stopping && code !== 0) cluster.fork();
    if (stopping && Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  });
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  return true;
}
