import { defineEventHandler, setResponseStatus } from 'h3';
import type { AdminSources } from './types.ts';

/**
 * `GET /readyz`: 200 `{"status":"ready"}` while the config is loaded, the store is reachable when it
 * must be and the gateway is not draining; otherwise 503 with the reasons (a load balancer then stops
 * sending traffic).
 */
export function defineReadyzRoute(sources: AdminSources) {
  return defineEventHandler((event) => {
    const reasons = sources.readNotReady();
    if (reasons.length === 0) return { status: 'ready' };
    setResponseStatus(event, 503);
    return { status: 'not_ready', reasons };
  });
}
