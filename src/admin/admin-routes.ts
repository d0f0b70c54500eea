import { CONSOLE_ROUTES } from '../console/console-routes.ts';
import { reloadRoute } from './reload-route.ts';
import { statusRoute } from './status-route.ts';
import type { AdminRoute } from './types.ts';

/** The admin API (admin key required): one line per route; each route is its own file beside this one. */
export const ADMIN_ROUTES: readonly AdminRoute[] = [statusRoute, reloadRoute, ...CONSOLE_ROUTES];
