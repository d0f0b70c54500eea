import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { GatewayError, toGatewayError } from '../errors.ts';
import {
  checkUpgradeRequest,
  isCredentialProtocol,
  listClientProtocols,
  selectClientProtocol,
  writeHttpError,
  type RenderedError,
} from './realtime-handshake.ts';
import { relayFrames } from './realtime-relay.ts';
import { openUpstream, type RealtimeTarget, type UpstreamConnection } from './realtime-upstream.ts';

export type { RenderedError } from './realtime-handshake.ts';
export type { RealtimeTarget } from './realtime-upstream.ts';

/** What the caller supplies for every realtime upgrade. */
export interface RealtimeHooks {
  /** Authenticates the client, resolves the model, builds the vendor URL and headers; throws GatewayError. */
  authorize(req: IncomingMessage): Promise<RealtimeTarget>;
  /** Renders an error refusing the upgrade (status, headers such as x-request-id, JSON body). */
  renderError(error: GatewayError, req: IncomingMessage): RenderedError;
  /** Longest wait for the vendor's handshake (default 600 s). */
  connectTimeoutMs?: number;
  /** Largest frame accepted from either side (default: ws's 100 MiB). */
  maxPayload?: number;
}

/** One upgrade to proxy: the http server's `upgrade` event arguments plus the hooks. */
export interface RealtimeOptions extends RealtimeHooks {
  req: IncomingMessage;
  socket: Duplex;
  head: Buffer;
}

/** How a realtime session went, for the request's usage event. */
export interface RealtimeOutcome {
  /** 101 when the session was established, else the status of the error answered. */
  status: number;
  error?: GatewayError;
  clientCloseCode?: number;
  vendorCloseCode?: number;
  framesFromClient: number;
  framesFromVendor: number;
  durationMs: number;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 600_000;
/** The subprotocol answered to each accepted client, chosen after the vendor's handshake. */
const chosenProtocols = new WeakMap<IncomingMessage, string | false>();
/** The request id each accepted client's 101 carries, set just before its handshake is written. */
const requestIds = new WeakMap<IncomingMessage, string>();
/** One noServer acceptor per distinct `maxPayload` (in practice: one per process). */
const acceptors = new Map<number | undefined, WebSocketServer>();

function getAcceptor(maxPayload: number | undefined): WebSocketServer {
  let acceptor = acceptors.get(maxPayload);
  if (acceptor === undefined) {
    acceptor = createAcceptor(maxPayload);
    acceptors.set(maxPayload, acceptor);
  }
  return acceptor;
}

function createAcceptor(maxPayload: number | undefined): WebSocketServer {
  const acceptor = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
    maxPayload,
    handleProtocols: (offered, req) => chosenProtocols.get(req) ?? false,
  });
  acceptor.on('headers', (headers, req) => {
    const id = requestIds.get(req);
    if (id !== undefined) headers.push(`x-request-id: ${id}`);
  });
  return acceptor;
}

/**
 * Proxies one WebSocket upgrade (e.g. `GET /v1/realtime?model=...`): authorizes it, opens the vendor
 * socket (forwarding the client's subprotocols except those carrying credentials), accepts the client
 * and relays frames both ways until either side closes. Refusals are written as plain HTTP responses.
 * Resolves when the session is over; never rejects.
 */
export async function proxyRealtime(options: RealtimeOptions): Promise<RealtimeOutcome> {
  const { req, socket } = options;
  const startedAt = performance.now();
  const finish = (fields: Partial<RealtimeOutcome> & { status: number }): RealtimeOutcome => ({
    framesFromClient: 0,
    framesFromVendor: 0,
    durationMs: performance.now() - startedAt,
    ...fields,
  });
  const watch = watchClient(socket);
  const clientGone = watch.signal;

  let upstream: UpstreamConnection;
  let target: RealtimeTarget;
  try {
    checkUpgradeRequest(req);
    target = await options.authorize(req);
    if (clientGone.aborted) throw clientClosed();
    upstream = await openUpstream(target, {
      protocols: listClientProtocols(req).filter((protocol) => !isCredentialProtocol(protocol)),
      timeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      maxPayload: options.maxPayload,
      signal: clientGone,
    });
  } catch (caught) {
    const error = toGatewayError(caught);
    watch.release();
    if (!clientGone.aborted) writeHttpError(socket, safeRender(options, error));
    else socket.destroy();
    return finish({ status: error.status, error });
  }

  const early = watch.release();
  const head = early.length === 0 ? options.head : Buffer.concat([options.head, ...early]);
  const client = clientGone.aborted ? undefined : acceptClient(options, head, upstream.socket.protocol, target.requestId);
  if (client === undefined) {
    upstream.socket.terminate();
    const error = clientClosed();
    return finish({ status: error.status, error });
  }
  const relayed = await relayFrames(client, upstream, target.redactor);
  return finish({
    status: 101,
    clientCloseCode: relayed.clientCode,
    vendorCloseCode: relayed.vendorCode,
    framesFromClient: relayed.framesFromClient,
    framesFromVendor: relayed.framesFromVendor,
  });
}

/** Most bytes a client may send before its handshake is answered (it should send none). */
const EARLY_BYTES_LIMIT = 64 * 1024;

/**
 * Reads the client socket while the upgrade is pending, so that a client leaving (FIN or reset) is
 * noticed; bytes it sent early are kept and handed back by `release` (they belong before the frames).
 * Call `release` only right before handing the socket on synchronously.
 */
function watchClient(socket: Duplex): { signal: AbortSignal; release(): Buffer[] } {
  const gone = new AbortController();
  const early: Buffer[] = [];
  let earlyBytes = 0;
  const onGone = () => gone.abort();
  const onData = (chunk: Buffer) => {
    early.push(chunk);
    if ((earlyBytes += chunk.length) > EARLY_BYTES_LIMIT) socket.destroy();
  };
  socket.on('error', () => undefined); // an error is followed by 'close'
  socket.on('data', onData);
  socket.once('end', onGone);
  socket.once('close', onGone);
  return {
    signal: gone.signal,
    release() {
      socket.off('data', onData);
      socket.off('end', onGone);
      socket.off('close', onGone);
      // The socket stays flowing: `ws` attaches its own 'data' listener synchronously right after
      // (a paused socket would stay paused for it), and no I/O event can fire in between.
      return early;
    },
  };
}

/** Completes the client's handshake; undefined when its socket is gone already. */
function acceptClient(options: RealtimeOptions, head: Buffer, vendorProtocol: string, requestId?: string): WebSocket | undefined {
  const { req, socket } = options;
  if (socket.destroyed || !socket.writable) {
    socket.destroy();
    return undefined;
  }
  const offered = new Set(listClientProtocols(req));
  chosenProtocols.set(req, selectClientProtocol(offered, vendorProtocol));
  if (requestId !== undefined) requestIds.set(req, requestId);
  let client: WebSocket | undefined;
  // Synchronous without verifyClient: the callback runs before handleUpgrade returns, or never.
  getAcceptor(options.maxPayload).handleUpgrade(req, socket, head, (ws) => {
    client = ws;
  });
  chosenProtocols.delete(req);
  requestIds.delete(req);
  return client;
}

/** The caller's rendering of `error`; a minimal JSON body should the renderer itself fail. */
function safeRender(options: RealtimeOptions, error: GatewayError): RenderedError {
  try {
    return options.renderError(error, options.req);
  } catch {
    const body = JSON.stringify({ error: { message: error.message, code: error.code } });
    return { status: error.status, headers: { 'content-type': 'application/json' }, body };
  }
}

function clientClosed(): GatewayError {
  return new GatewayError(499, 'client_closed_request', 'The client went away before the upgrade completed.');
}

/**
 * Returns a listener for `server.on('upgrade', ...)` that proxies every upgrade with `hooks` and
 * reports each finished session to `onOutcome` (e.g. to emit the usage event). Never throws.
 */
export function createRealtimeUpgradeHandler(
  hooks: RealtimeHooks,
  onOutcome?: (outcome: RealtimeOutcome, req: IncomingMessage) => void,
): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    proxyRealtime({ ...hooks, req, socket, head })
      .then((outcome) => onOutcome?.(outcome, req))
      .catch(() => socket.destroy()); // proxyRealtime never rejects; this guards a throwing onOutcome
  };
}
