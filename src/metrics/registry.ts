import { Counter, Registry } from 'prom-client';

/**
 * The process's metrics registry: every gateway metric is registered here (never in prom-client's global
 * registry), and with `--workers` each worker answers the primary's aggregation requests from it.
 */
export const metricsRegistry = new Registry();

const reloads = new Counter({
  name: 'gateway_reloads_total',
  help: 'Config reloads by outcome (ok: the new config serves; failed: the old one keeps serving).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

/** Counts one config reload (the reload code calls it once per attempt). */
export function recordReload(outcome: 'ok' | 'failed'): void {
  reloads.inc({ outcome });
}
