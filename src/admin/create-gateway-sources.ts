import type { GatewayMetrics } from '../metrics/index.ts';
import { readMetricsText } from '../metrics/index.ts';
import type { Gateway } from '../gateway/create-gateway.ts';
import { findKeyByDigest } from '../runtime/auth.ts';
import type { Services } from '../runtime/services.ts';
import type { RuntimeKey } from '../runtime/types.ts';
import type { AdminSources } from './types.ts';

const adminKeys = new WeakMap<readonly RuntimeKey[], RuntimeKey[]>();

/** The admin keys of a snapshot's keys, listed once per snapshot. */
function listAdminKeys(keys: readonly RuntimeKey[]): RuntimeKey[] {
  let admins = adminKeys.get(keys);
  if (!admins) adminKeys.set(keys, (admins = keys.filter((key) => key.config.admin)));
  return admins;
}

/**
 * What the admin listener of a serving process reads: its gateway's snapshot (admin keys, generation),
 * its metrics, and its readiness (not draining; the store reachable when the config fails closed on it).
 */
export function createGatewaySources(gateway: Gateway, services: Services, metrics: GatewayMetrics): AdminSources {
  return {
    readMetrics: () => readMetricsText(metrics.registries),
    readNotReady() {
      const reasons: string[] = [];
      if (gateway.isClosing()) reasons.push('draining');
      const { store } = services;
      if (store.stats && !store.stats.reachable && !store.failOpen) reasons.push('store unreachable (server.store_failure: fail-closed)');
      return reasons;
    },
    findAdminKey: (presented) => findKeyByDigest(listAdminKeys(gateway.getSnapshot().keys), presented)?.config.name,
    readStatus: () => ({
      pid: process.pid,
      uptimeSeconds: Math.round(process.uptime()),
      generation: (gateway.getSnapshot() as { generation?: number }).generation ?? 1,
      requestsInFlight: gateway.inFlight(),
      streamsInFlight: gateway.streamsInFlight(),
      draining: gateway.isClosing(),
    }),
  };
}
