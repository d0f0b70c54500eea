import type { H3Event } from 'h3';
import type { Logger } from 'pino';
import type { ConsoleSources } from '../console/types.ts';
import type { Reloader } from '../reload/create-reloader.ts';

/** What the admin routes read: readiness, metrics and who holds an admin key. Built by the process that listens. */
export interface AdminSources {
  /** The Prometheus text of this process (or, in a `--workers` primary, the sum over its workers). */
  readMetrics(): Promise<string>;
  /** Why the gateway is not ready for traffic (empty: ready). */
  readNotReady(): string[];
  /** The name of the admin key whose secret is `presented`, or undefined (constant time over every key). */
  findAdminKey(presented: string): string | undefined;
  /** A few facts for `GET /admin/status` (never a secret). */
  readStatus(): Record<string, unknown>;
  /** The reloader of the `--config` file (absent: started from the built tables, nothing to reload). */
  reloader?: Reloader;
  /** Where refused sign-ins and console changes are logged (absent: not logged). */
  logger?: Logger;
  /** The console's data and overrides (absent: `server.console` is off). */
  console?: ConsoleSources;
}

/** One admin API route: method, path under `/admin/`, and its handler (the admin key is checked before it runs; its name is passed). */
export interface AdminRoute {
  method: 'GET' | 'POST';
  path: string;
  handle(event: H3Event, sources: AdminSources, adminName: string): unknown;
}
