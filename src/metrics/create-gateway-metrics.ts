import cluster from 'node:cluster';
import { AggregatorRegistry, Registry, type PrometheusContentType } from 'prom-client';
import type { UsageSink } from '../runtime/handle-request.ts';
import { defineGauges, type GaugeSources } from './define-gauges.ts';
import { defineMetrics } from './define-metrics.ts';
import { createUsageRecorder } from './record-usage.ts';
import { metricsRegistry } from './registry.ts';

/** A gateway's metrics: the usage receiver that feeds them, and what `/metrics` serves. */
export interface GatewayMetrics {
  /** Give it to `createGateway({ onUsage })`: every request's usage event feeds the metrics. */
  record: UsageSink;
  /** Connects the scrape-time gauges (streams, pools, store, config generation) to a running gateway. */
  watch(sources: GaugeSources): void;
  /** The registries this process serves (and, as a worker, answers the primary's aggregation from). */
  registries: Registry[];
}

/**
 * Creates the metrics of one gateway in their own registry (a test process may run several gateways),
 * served together with the process-wide registry (reload outcomes). With node:cluster workers, each
 * worker answers the primary's aggregation requests from its gateway's registry (the primary reloads, so
 * the reload outcomes are the primary's own: readClusterMetricsText).
 */
export function createGatewayMetrics(): GatewayMetrics {
  const registry = new Registry();
  let sources: GaugeSources | undefined;
  const record = createUsageRecorder(defineMetrics(registry), (model) => sources?.getSnapshot().models.has(model) ?? false);
  // A worker's reload counts stay 0 (its primary reloads): the primary adds its own to the sum.
  const registries = cluster.isWorker ? [registry] : [metricsRegistry, registry];
  AggregatorRegistry.setRegistries(registries);
  // A worker answers the primary's requests for its metrics once an AggregatorRegistry exists.
  if (cluster.isWorker) new AggregatorRegistry();
  return {
    record,
    registries,
    watch(given) {
      if (sources) throw new Error('the metrics already watch a gateway');
      sources = given;
      defineGauges(registry, given);
    },
  };
}

/** The Prometheus text of `registries`, merged. */
export async function readMetricsText(registries: Registry[]): Promise<string> {
  return (await Promise.all(registries.map((r) => r.metrics()))).join('\n');
}

let aggregator: AggregatorRegistry<PrometheusContentType> | undefined;

/**
 * In a node:cluster primary: its own metrics (reload outcomes: the primary reloads) and the sum over every
 * worker's metrics (counters and histograms added up).
 */
export async function readClusterMetricsText(): Promise<string> {
  aggregator ??= new AggregatorRegistry();
  const texts = await Promise.all([metricsRegistry.metrics(), aggregator.clusterMetrics()]);
  return texts.filter((text) => text !== '').join('\n');
}
