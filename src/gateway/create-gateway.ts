import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createApp, createRouter, defineEventHandler, toNodeListener } from 'h3';
import type { CompiledConfig } from '../config/types.ts';
import { serveStoredImage } from '../images/serve.ts';
import { answerClientError } from '../runtime/client-error.ts';
import { createRequestHandler, type InFlight, type UsageSink } from '../runtime/handle-request.ts';
import { drainInFlight } from '../runtime/drain.ts';
import { createUpgradeListener } from '../runtime/realtime-route.ts';
import { createServices, type Services } from '../runtime/services.ts';
import { readTaskSecret } from '../runtime/secrets.ts';
import { createSnapshot } from '../runtime/snapshot.ts';
import { createSnapshotKeeper } from '../runtime/snapshot-keeper.ts';
import type { Snapshot } from '../runtime/types.ts';
import { GATEWAY_DISPATCH } from './dispatch.ts';
import { InFlightList } from '../runtime/in-flight-list.ts';

/** Options of {@link createGateway}. */
export interface GatewayOptions {
  config: CompiledConfig;
  env?: NodeJS.ProcessEnv;
  /** Receivers of the usage event every request ends with (logs, metrics, limits). */
  onUsage?: UsageSink[];
  /** Limits and cooldowns (default: in-memory, this process only). */
  services?: Services;
  /** The generation of the first config (default 1; a worker started after reloads gets its primary's). */
  generation?: number;
  /**
   * Signs task ids when the environment names no task secret: the one kept in `server.store`
   * (keep-task-secret.ts); default: the one derived from the first config's keys, kept across reloads.
   */
  taskSecret?: string;
}

/** A running gateway. */
export interface Gateway {
  server: Server;
  /** The current snapshot. */
  getSnapshot(): Snapshot;
  /**
   * Swaps in a new compiled config and returns its generation: requests in flight finish on the snapshot they
   * started with, new ones use the new one; limits and cooldowns (the services) stay; vendors whose settings and
   * secret did not change keep their pools, replaced pools close when their last request ends. Secrets are read
   * again from the environment (`options.env`, or the one given here).
   */
  reload(config: CompiledConfig, options?: ReloadOptions): number;
  listen(port?: number, host?: string): Promise<string>;
  /** Requests (streams included) still being answered. */
  inFlight(): number;
  /** Event streams (SSE answers) still open; counted when asked (for the metrics scrape). */
  streamsInFlight(): number;
  /** Whether {@link close} has begun (the gateway is draining). */
  isClosing(): boolean;
  /**
   * Stops accepting connections, lets requests in flight finish for up to `drainMs` (default 30 s),
   * then closes what is left and releases the vendor pools and the store.
   */
  close(drainMs?: number): Promise<void>;
}

/** Options of {@link Gateway.reload}. */
export interface ReloadOptions {
  /** The environment to read secrets from from now on (default: the one the gateway has). */
  env?: NodeJS.ProcessEnv;
  /** The generation to give the new snapshot (default: the current one + 1), e.g. one numbered by a primary. */
  generation?: number;
}

/** How long a client may take to send a request's headers. */
const HEADERS_TIMEOUT_MS = 60_000;

/** Node's deadline for a whole request: the headers' and the body's (0: none, when the body has none). */
function getRequestTimeout(config: CompiledConfig): number {
  return config.server.bodyTimeoutMs ? HEADERS_TIMEOUT_MS + config.server.bodyTimeoutMs : 0;
}

/** Auxiliary routes (health, stored images) on h3; everything the route table names is served natively. */
function createAuxiliaryApp(getSnapshot: () => Snapshot) {
  const files = serveStoredImage(() => getSnapshot().config.server);
  const router = createRouter()
    .get('/healthz', defineEventHandler(() => ({ status: 'ok' })))
    .use('/files/', files)
    .use('/files/**', files);
  const app = createApp().use(router);
  const listener = toNodeListener(app);
  const paths = new Set(['/healthz']);
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const path = (req.url ?? '/').split('?')[0];
    if (!paths.has(path) && !path.startsWith('/files/')) return false;
    Promise.resolve(listener(req, res)).catch(() => res.destroy());
    return true;
  };
}

/** The requests in flight whose answer is an open event stream. */
function countStreams(inFlight: InFlight): number {
  let count = 0;
  for (const ctx of inFlight.contexts) {
    const type = ctx.res.getHeader('content-type');
    if (ctx.res.headersSent && typeof type === 'string' && type.startsWith('text/event-stream')) count++;
  }
  return count;
}

/**
 * Builds the gateway server from a compiled config: the runtime's request listener over the gateway's
 * dispatch table (the image, Responses-state and translation modules joined in dispatch.ts), plus the
 * auxiliary routes. The proxy hot path is a Node-native listener over the generated tables (measured faster than routing through h3's app, see bench/RESULTS.md); h3 serves the
 * auxiliary routes.
 */
export function createGateway(options: GatewayOptions): Gateway {
  let env = options.env ?? process.env;
  // Reloads keep signing with it: a key issued or disabled in the console must not orphan earlier task ids.
  const taskSecret = options.taskSecret ?? readTaskSecret(options.config, env);
  const first = createSnapshot(options.config, env, undefined, taskSecret);
  const snapshots = createSnapshotKeeper(options.generation === undefined ? first : { ...first, generation: options.generation });
  const getSnapshot = snapshots.current;
  let closing = false;
  const sinks = options.onUsage ?? [];
  // With no receiver no usage event is built (nor a JSON answer's usage read, unless a token limit needs it).
  // A receiver that throws is reported and skipped: it runs when a response closes, outside any request's promise.
  const sink: UsageSink | undefined = sinks.length === 0 ? undefined : (event) => {
    for (const receive of sinks) {
      try {
        receive(event);
      } catch (error) {
        process.emitWarning(error as Error);
      }
    }
  };
  const services = options.services ?? createServices(options.config.server);
  const inFlight: InFlight = { active: 0, contexts: new InFlightList(), snapshots };
  const handler = createRequestHandler(getSnapshot, services, GATEWAY_DISPATCH, sink, createAuxiliaryApp(getSnapshot), inFlight);
  const { tls } = options.config.server;
  // Node checks the headers and request deadlines of open connections once a second (its default: 30 s).
  // Host and Expect are checked by the request listener, which answers in the caller's style (check-request-head.ts).
  const checking = { connectionsCheckingInterval: 1000, requireHostHeader: false };
  const server = tls
    ? createHttpsServer({ ...checking, cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }, handler)
    : createHttpServer(checking, handler);
  server.on('upgrade', createUpgradeListener(getSnapshot, sink ?? (() => undefined)));
  server.on('clientError', answerClientError);
  server.on('checkExpectation', handler);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  // A backstop for bodies nobody reads (the body reader has its own, exact deadline from the end of the headers).
  server.requestTimeout = getRequestTimeout(options.config);
  return {
    server,
    getSnapshot,
    reload(config, reload = {}) {
      // Pools made after close() would never be closed.
      if (closing) throw new Error('the gateway is shutting down; the reload was not applied');
      const nextEnv = reload.env ?? env;
      const next = createSnapshot(config, nextEnv, getSnapshot(), taskSecret);
      env = nextEnv;
      snapshots.swap(reload.generation === undefined ? next : { ...next, generation: reload.generation });
      server.requestTimeout = getRequestTimeout(config);
      return getSnapshot().generation;
    },
    listen(port = options.config.server.port, host = options.config.server.host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server.address() as AddressInfo;
          const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          resolve(`${tls ? 'https' : 'http'}://${shown}:${address.port}`);
        });
      });
    },
    inFlight: () => inFlight.active,
    streamsInFlight: () => countStreams(inFlight),
    isClosing: () => closing,
    async close(drainMs = 30_000) {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await drainInFlight(inFlight, drainMs);
      server.closeAllConnections();
      await closed;
      await snapshots.closeAll();
      await services.store.close();
    },
  };
}
