import type { AdminRoute } from '../admin/types.ts';
import { describeKeys } from './describe-keys.ts';
import { STYLES } from '../protocols/styles.ts';
import { describeModels } from './describe-models.ts';
import { getConsole, readAdminName } from './get-console.ts';
import { summarizeUsage } from './summarize-usage.ts';

/**
 * The console's read-only admin API: `GET /admin/console/session` (who signed in), `/admin/models`,
 * `/admin/keys` (never a secret or digest) and `/admin/overview` (the last hour's numbers and per-minute series of
 * this process, and on Redis every instance's, labelled).
 */
export const CONSOLE_READ_ROUTES: readonly AdminRoute[] = [
  {
    method: 'GET',
    path: '/admin/console/session',
    handle: (event, sources) => {
      getConsole(sources);
      return { name: readAdminName(event, sources) };
    },
  },
  { method: 'GET', path: '/admin/models', handle: (_event, sources) => ({ models: describeModels(getConsole(sources).getConfig()), styles: Object.keys(STYLES) }) },
  {
    method: 'GET',
    path: '/admin/keys',
    handle: (_event, sources) => {
      const view = getConsole(sources);
      return { keys: describeKeys(view.getBaseConfig(), view.getConfig(), view.overrides.current(), view.feed.listRows()) };
    },
  },
  {
    method: 'GET',
    path: '/admin/overview',
    handle: async (_event, sources) => {
      const view = getConsole(sources);
      return { ...summarizeUsage(view.feed.listRows()), instances: (await view.listInstances?.()) ?? [] };
    },
  },
];
