import { defineEventHandler, setResponseHeader, type Router } from 'h3';
import { CONSOLE_ASSETS } from '../../generated/console.ts';
import type { ConsoleHost } from './types.ts';

/**
 * Serves the console's page and files (bundled at build time into generated/console.ts) under `/console/`
 * of the admin listener when `server.console` is on. They hold no data: everything the page shows comes
 * from the admin API with the admin key the operator signs in with.
 */
export function registerConsole(router: Router, host: ConsoleHost): void {
  if (!host.console) return;
  for (const [name, asset] of Object.entries(CONSOLE_ASSETS)) {
    const path = name === 'index.html' ? '/console/' : `/console/${name}`;
    router.get(path, defineEventHandler((event) => {
      setResponseHeader(event, 'content-type', asset.type);
      setResponseHeader(event, 'cache-control', 'no-cache');
      return asset.body;
    }));
  }
}
