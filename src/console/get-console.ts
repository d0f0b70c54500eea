import type { H3Event } from 'h3';
import { GatewayError } from '../errors.ts';
import { checkAdminKey } from '../admin/check-admin-key.ts';
import type { AdminSources } from '../admin/types.ts';
import type { ConsoleSources } from './types.ts';

/** The console's sources of an admin listener; 404 `console_off` when `server.console` is not on (or this process has none). */
export function getConsole(sources: AdminSources): ConsoleSources {
  if (!sources.console) {
    throw new GatewayError(404, 'console_off', 'The console is off: set server.console: true (with server.admin).');
  }
  return sources.console;
}

/** The name of the admin key of a request the admin router already admitted (for the change log). */
export function readAdminName(event: H3Event, sources: AdminSources): string {
  return checkAdminKey(event, sources);
}
