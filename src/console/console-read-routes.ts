import { describeKeys } from './describe-keys.ts';
import { STYLES } from '../protocols/styles.ts';
import { describeModels } from './describe-models.ts';
import { getConsole } from './get-console.ts';
import type { ConsoleRoute } from './types.ts';

/**
 * The console's read-only admin API: `GET /admin/console/session` (who signed in), `/admin/models`,
 * and `/admin/keys` (never a secret or digest); the overview is console-overview-route.ts.
 */
export const CONSOLE_READ_ROUTES: readonly ConsoleRoute[] = [
  {
    method: 'GET',
    path: '/admin/console/session',
    handle: (_event, host, adminName) => {
      getConsole(host);
      return { name: adminName };
    },
  },
  { method: 'GET', path: '/admin/models', handle: (_event, host) => ({ models: describeModels(getConsole(host).getConfig()), styles: Object.keys(STYLES) }) },
  {
    method: 'GET',
    path: '/admin/keys',
    handle: (_event, host) => {
      const view = getConsole(host);
      return { keys: describeKeys(view.getBaseConfig(), view.getConfig(), view.overrides.current(), (name) => view.feed.aggregate.readKeyUsage(name)) };
    },
  },
];
