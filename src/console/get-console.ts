import { GatewayError } from '../errors.ts';
import type { ConsoleHost, ConsoleSources } from './types.ts';

/** The console's sources of an admin listener; 404 `console_off` when `server.console` is not on (or this process has none). */
export function getConsole(host: ConsoleHost): ConsoleSources {
  if (!host.console) {
    throw new GatewayError(404, 'console_off', 'The console is off: set server.console: true (with server.admin).');
  }
  return host.console;
}
