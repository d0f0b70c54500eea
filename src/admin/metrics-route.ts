import { defineEventHandler, setResponseHeader } from 'h3';
import type { AdminSources } from './types.ts';

/** `GET /metrics`: Prometheus text format, no key (bind the admin listener privately). */
export function defineMetricsRoute(sources: AdminSources) {
  return defineEventHandler(async (event) => {
    const text = await sources.readMetrics();
    setResponseHeader(event, 'content-type', 'text/plain; version=0.0.4; charset=utf-8');
    return text;
  });
}
