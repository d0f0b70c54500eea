import { getQuery } from 'h3';
import { GatewayError } from '../errors.ts';
import { PUBLISHED_ROWS } from './describe-instance.ts';
import { getConsole } from './get-console.ts';
import type { ConsoleRoute } from './types.ts';

/**
 * `GET /admin/overview`: this process's last hour (in total, per style and per model, read from its usage
 * aggregate) with its latest {@link PUBLISHED_ROWS} rows, and on Redis `instances`: every instance sharing
 * the store in total, labelled. `?instance=ID` answers the same overview of another instance as it last
 * published it (`instance` and `updatedAt` name it): 404 `instance_not_found` when it is not listed any more.
 */
export const consoleOverviewRoute: ConsoleRoute = {
  method: 'GET',
  path: '/admin/overview',
  async handle(event, host) {
    const view = getConsole(host);
    const wanted = getQuery(event).instance;
    const instances = (await view.listInstances?.()) ?? [];
    if (typeof wanted === 'string' && wanted !== '') {
      const other = await view.readInstance?.(wanted);
      if (!other) throw new GatewayError(404, 'instance_not_found', 'No instance of that id shares the store now.');
      return { ...other, instance: other.id, instances };
    }
    // Rows are reused objects: copied before anything else runs.
    const recent = view.feed.listRecent().slice(-PUBLISHED_ROWS).map((row) => ({ ...row }));
    return { ...view.feed.aggregate.readOverview(), recent, instances };
  },
};
