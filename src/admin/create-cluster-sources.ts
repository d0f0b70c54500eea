import cluster from 'node:cluster';
import type { CompiledConfig } from '../config/types.ts';
import { readClusterMetricsText } from '../metrics/index.ts';
import { findKeyByDigest } from '../runtime/auth.ts';
import { readKeyDigest } from '../runtime/secrets.ts';
import type { RuntimeKey } from '../runtime/types.ts';
import type { AdminSources } from './types.ts';

/** Workers connected now. */
function countWorkers(): number {
  return Object.values(cluster.workers ?? {}).filter((worker) => worker?.isConnected()).length;
}

/**
 * What the admin listener of a `--workers` primary reads: the sum of its workers' metrics, readiness
 * (at least one worker up, not stopping) and the admin keys of the config it started with.
 */
export function createClusterSources(config: CompiledConfig, env: NodeJS.ProcessEnv, isStopping: () => boolean): AdminSources {
  const admins: RuntimeKey[] = [];
  for (const key of config.keys) {
    const digest = key.admin ? readKeyDigest(key, env) : undefined;
    if (digest) admins.push({ config: key, digest, allows: () => false });
  }
  return {
    readMetrics: () => readClusterMetricsText(),
    readNotReady() {
      const reasons: string[] = [];
      if (isStopping()) reasons.push('draining');
      if (countWorkers() === 0) reasons.push('no worker is up');
      return reasons;
    },
    findAdminKey: (presented) => findKeyByDigest(admins, presented)?.config.name,
    readStatus: () => ({ pid: process.pid, uptimeSeconds: Math.round(process.uptime()), workers: countWorkers(), draining: isStopping() }),
  };
}
