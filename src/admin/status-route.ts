import type { AdminRoute } from './types.ts';

/** `GET /admin/status`: the process, its uptime, requests in flight and the config generation serving. */
export const statusRoute: AdminRoute = {
  method: 'GET',
  path: '/admin/status',
  handle: (_event, sources) => sources.readStatus(),
};
