/** The gateway's Prometheus metrics (see README "Operating"). */
export { createGatewayMetrics, readClusterMetricsText, readMetricsText, type GatewayMetrics } from './create-gateway-metrics.ts';
export { recordReload } from './registry.ts';
