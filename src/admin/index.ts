/** The admin listener (`server.admin`): /metrics, /healthz, /readyz and the admin API under /admin/. */
export { createClusterSources } from './create-cluster-sources.ts';
export { createGatewaySources } from './create-gateway-sources.ts';
export { startAdminListener, type AdminListener } from './start-admin-listener.ts';
export type { AdminRoute, AdminSources } from './types.ts';
