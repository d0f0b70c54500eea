import { Counter, Gauge, type Registry } from 'prom-client';
import type { Dispatcher } from 'undici';
import type { StoreStats } from '../limits/store.ts';
import type { Snapshot } from '../runtime/types.ts';

/** What the gauges read at each scrape. */
export interface GaugeSources {
  getSnapshot(): Snapshot;
  streamsInFlight(): number;
  inFlight(): number;
  /** The store's counts when it is networked (Redis). */
  storeStats?: StoreStats;
}

/** Requests waiting for a connection in a vendor's pool (a Pool, or an Agent/ProxyAgent per origin). */
function readQueued(dispatcher: Dispatcher): number {
  const stats = (dispatcher as { stats?: unknown }).stats as Record<string, unknown> | undefined;
  if (!stats) return 0;
  if (typeof stats.queued === 'number') return stats.queued;
  let queued = 0;
  for (const value of Object.values(stats)) {
    const origin = value as { queued?: number; pending?: number } | undefined;
    queued += origin?.queued ?? origin?.pending ?? 0;
  }
  return queued;
}

/** Defines the gauges and counters read at scrape time (no work on the request path). */
export function defineGauges(registry: Registry, sources: GaugeSources): void {
  const registers = [registry];
  new Gauge({
    name: 'gateway_streams_in_flight',
    help: 'Event streams (SSE answers) open now.',
    registers,
    collect() {
      this.set(sources.streamsInFlight());
    },
  });
  new Gauge({
    name: 'gateway_requests_in_flight',
    help: 'Requests being answered now (streams included).',
    registers,
    collect() {
      this.set(sources.inFlight());
    },
  });
  new Gauge({
    name: 'gateway_vendor_pool_queued',
    help: "Requests waiting for a free connection in a vendor's connection pool.",
    labelNames: ['vendor'] as const,
    registers,
    collect() {
      this.reset();
      for (const vendor of sources.getSnapshot().vendors.values()) this.labels(vendor.config.name).set(readQueued(vendor.dispatcher));
    },
  });
  new Gauge({
    name: 'gateway_config_generation',
    help: 'The generation of the config serving new requests (1 at start, +1 per successful reload).',
    aggregator: 'max',
    registers,
    collect() {
      this.set((sources.getSnapshot() as { generation?: number }).generation ?? 1);
    },
  });
  const { storeStats } = sources;
  if (!storeStats) return;
  defineStoreMetrics(registers, storeStats);
}

/** The Redis store's commands, errors, round-trip time and reachability. */
function defineStoreMetrics(registers: Registry[], stats: StoreStats): void {
  const counter = (name: string, help: string, read: () => number) =>
    new Counter({
      name,
      help,
      registers,
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  counter('gateway_store_commands_total', 'Commands sent to the shared limit store (Redis).', () => stats.commands);
  counter('gateway_store_errors_total', 'Commands to the shared limit store that failed (unreachable, timed out).', () => stats.errors);
  counter('gateway_store_seconds_total', 'Total round-trip time of store commands; divide by the commands for the mean latency.', () => stats.seconds);
  new Gauge({
    name: 'gateway_store_up',
    help: '1 while the shared limit store answers, 0 while it is unreachable.',
    registers,
    collect() {
      this.set(stats.reachable ? 1 : 0);
    },
  });
}
