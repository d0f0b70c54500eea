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

const adminKeys = new WeakMap<CompiledConfig, RuntimeKey[]>();

/** The admin keys of a config with their secrets' digests (from `env`), listed once per config. */
function listAdminKeys(config: CompiledConfig, env: NodeJS.ProcessEnv): RuntimeKey[] {
  let admins = adminKeys.get(config);
  if (admins) return admins;
  admins = [];
  for (const key of config.keys) {
    const digest = key.admin ? readKeyDigest(key, env) : undefined;
    if (digest) admins.push({ config: key, digest, allows: () => false });
  }
  adminKeys.set(config, admins);
  return admins;
}

/**
 * What the admin listener of a `--workers` primary reads: the sum of its workers' metrics (with the primary's
 * own reload counts), readiness (at least one worker up, not stopping) and the admin keys of the config serving
 * now (`getConfig`: the reloaded one after a reload, its secrets read again from `env`).
 */
export function createClusterSources(getConfig: () => CompiledConfig, env: NodeJS.ProcessEnv, isStopping: () => boolean): AdminSources {
  return {
    readMetrics: () => readClusterMetricsText(),
    readNotReady() {
      const reasons: string[] = [];
      if (isStopping()) reasons.push('draining');
      if (countWorkers() === 0) reasons.push('no worker is up');
      return reasons;
    },
    findAdminKey: (presented) => findKeyByDigest(listAdminKeys(getConfig(), env), presented)?.config.name,
    readStatus: () => ({ pid: process.pid, uptimeSeconds: Math.round(process.uptime()), workers: countWorkers(), draining: isStopping() }),
  };
}
