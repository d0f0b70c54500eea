import { CONSOLE_OVERRIDE_ROUTES } from './console-override-routes.ts';
import { consoleOverviewRoute } from './console-overview-route.ts';
import { CONSOLE_READ_ROUTES } from './console-read-routes.ts';
import { consolePlaygroundRoute } from './console-playground-route.ts';
import { consoleTailRoute } from './console-tail-route.ts';
import type { ConsoleRoute } from './types.ts';

/** The console's admin API routes (each answers 404 `console_off` when `server.console` is off). */
export const CONSOLE_ROUTES: readonly ConsoleRoute[] = [...CONSOLE_READ_ROUTES, consoleOverviewRoute, consoleTailRoute, ...CONSOLE_OVERRIDE_ROUTES, consolePlaygroundRoute];
