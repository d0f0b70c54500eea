import type { IncomingMessage, ServerResponse } from 'node:http';
import { createApp, createRouter, defineEventHandler, type EventHandler, type H3Event, toNodeListener } from 'h3';
import { GatewayError } from '../errors.ts';
import { renderAdminError } from './admin-error.ts';
import { ADMIN_ROUTES } from './admin-routes.ts';
import { registerConsole } from '../console/register-console.ts';
import { defineSecurityHeaders } from '../console/security-headers.ts';
import { createAdminKeyGate, type SignInLimit } from './gate-admin-key.ts';
import { defineMetricsRoute } from './metrics-route.ts';
import { defineReadyzRoute } from './readyz-route.ts';
import type { AdminSources } from './types.ts';

/** Runs a handler and answers whatever it throws as the admin listener's JSON error. */
function guard(handler: (event: H3Event) => unknown): EventHandler {
  return defineEventHandler(async (event) => {
    try {
      return await handler(event);
    } catch (error) {
      return renderAdminError(event, error);
    }
  });
}

/**
 * The admin listener's request listener (h3): `GET /metrics` (no key), `GET /healthz`, `GET /readyz`,
 * and the admin API under `/admin/` ({@link ADMIN_ROUTES}; an admin key from `Authorization: Bearer`
 * before anything else, so that an unknown admin path tells a caller without a key nothing).
 */
export function createAdminListener(sources: AdminSources, signInLimit?: SignInLimit): (req: IncomingMessage, res: ServerResponse) => void {
  const router = createRouter()
    .get('/metrics', defineMetricsRoute(sources))
    .get('/healthz', defineEventHandler(() => ({ status: 'ok' })))
    .get('/readyz', defineReadyzRoute(sources));
  const checkAdminKey = createAdminKeyGate(sources, signInLimit);
  registerConsole(router, sources);
  for (const route of ADMIN_ROUTES) {
    const handler = guard((event) => {
      const adminName = checkAdminKey(event);
      return route.handle(event, sources, adminName);
    });
    if (route.method === 'GET') router.get(route.path, handler);
    else router.post(route.path, handler);
  }
  const notFound = guard((event) => {
    if (event.path.startsWith('/admin')) checkAdminKey(event);
    const known = ADMIN_ROUTES.some((route) => route.path === event.path.split('?')[0]);
    if (known) throw new GatewayError(405, 'method_not_allowed', `${event.method} is not allowed on ${event.path.split('?')[0]}.`);
    throw new GatewayError(404, 'route_not_found', 'No such route on the admin listener.');
  });
  const app = createApp().use(defineSecurityHeaders()).use(router).use(notFound);
  const listener = toNodeListener(app);
  return (req, res) => {
    Promise.resolve(listener(req, res)).catch(() => res.destroy());
  };
}
