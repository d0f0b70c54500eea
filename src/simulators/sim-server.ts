import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Fault, RecordedRequest, Simulator, SimulatorOptions } from './types.ts';

/** A request as a simulated vendor's handler sees it (body already read). */
export interface SimRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  /** Path without the query. */
  path: string;
  /** Raw query string without `?` ('' when absent). */
  search: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** Answers one request of a simulated vendor. */
export type SimHandler = (req: SimRequest, res: ServerResponse) => void | Promise<void>;

/** Takes over a WebSocket upgrade; `resetAfterEvents` is set by a `reset-mid-stream` fault. */
export type SimUpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer, resetAfterEvents?: number) => void;

/** What a vendor plugs into the shared server. */
export interface SimServerSpec {
  options: SimulatorOptions;
  /** Base path of the vendor's API (e.g. `/v1`), appended to the origin to form `url`. */
  basePath: string;
  handle: SimHandler;
  /** The vendor's own error body for a status (status faults without a body, handler crashes). */
  errorBody(status: number): unknown;
  upgrade?: SimUpgradeHandler;
  /** Extra cleanup on close (e.g. WebSocket clients). */
  onClose?: () => void;
}

const GARBAGE = '<html><body>simulated garbage: this is not JSON</body></html>';

/** Starts a simulated vendor: recording, queued faults, routing to the vendor's handler. */
export async function startSimServer(spec: SimServerSpec): Promise<Simulator> {
  const { options, handle } = spec;
  const record = options.record !== false;
  const received: RecordedRequest[] = [];
  const faults: Fault[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const upgraded = new Set<Duplex>();

  const run = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const simReq: SimRequest = {
      method: req.method ?? 'GET',
      url,
      path: q < 0 ? url : url.slice(0, q),
      search: q < 0 ? '' : url.slice(q + 1),
      headers: req.headers,
      body,
    };
    try {
      const done = handle(simReq, res);
      if (done) done.catch((error) => answerCrash(res, spec, error));
    } catch (error) {
      answerCrash(res, spec, error);
    }
  };
  const later = (ms: number, fn: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      if (record) received.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body });
      const fault = faults.shift();
      if (fault === undefined) return run(req, res, body);
      switch (fault.kind) {
        case 'status':
          return sendJson(res, fault.status, fault.body ?? spec.errorBody(fault.status), fault.headers);
        case 'reset-before-headers':
          return void req.socket.destroy();
        case 'reset-mid-stream':
          armMidStreamReset(res, fault.afterEvents);
          return run(req, res, body);
        case 'delay':
          return later(fault.ms, () => run(req, res, body));
        case 'hang':
          return;
        case 'garbage':
          return sendText(res, 200, GARBAGE, 'application/json');
      }
    });
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgraded.add(socket);
    socket.on('close', () => upgraded.delete(socket));
    socket.on('error', () => socket.destroy());
    if (record) received.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.alloc(0) });
    const go = (reset?: number): void => (spec.upgrade ? spec.upgrade(req, socket, head, reset) : void socket.destroy());
    const fault = faults.shift();
    if (fault === undefined) return go();
    switch (fault.kind) {
      case 'status':
        return writeRawResponse(socket, fault.status, fault.body ?? spec.errorBody(fault.status), fault.headers);
      case 'reset-before-headers':
        return void socket.destroy();
      case 'reset-mid-stream':
        return go(fault.afterEvents);
      case 'delay':
        return later(fault.ms, () => go());
      case 'hang':
        return;
      case 'garbage':
        return writeRawResponse(socket, 200, GARBAGE);
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // exclusive: in a cluster worker (`--workers`), listen(0) would otherwise share the primary's handle of
    // this worker's nth listen(0) with every other worker's nth, whichever simulator that is there.
    server.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1', exclusive: true }, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${spec.basePath}`,
    received,
    failNext(fault: Fault, times = 1): void {
      for (let i = 0; i < times; i++) faults.push(fault);
    },
    reset(): void {
      received.length = 0;
      faults.length = 0;
    },
    close(): Promise<void> {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      spec.onClose?.();
      for (const socket of upgraded) socket.destroy();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Sends a whole JSON response (`body` may be pre-serialized text). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Sends a whole response of any content type. */
export function sendText(res: ServerResponse, status: number, body: string | Buffer, contentType: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Writes a complete HTTP response straight onto a socket (answers to refused WebSocket upgrades). */
export function writeRawResponse(socket: Duplex, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Unknown'}`, 'content-type: application/json'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  lines.push(`content-length: ${Buffer.byteLength(text)}`, 'connection: close', '', text);
  socket.end(lines.join('\r\n'));
}

/** Parses a JSON request body; undefined when it is not JSON. */
export function readJson(body: Buffer): any {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

function answerCrash(res: ServerResponse, spec: SimServerSpec, error: unknown): void {
  if (res.headersSent) return void res.destroy(error instanceof Error ? error : undefined);
  sendJson(res, 500, spec.errorBody(500));
}

/**
 * Lets the response through until `afterEvents` writes (stream events) have gone out, then drops the
 * connection once those bytes are flushed. A whole body (`end(body)` without writes) is cut in half.
 * The response is never completed, so the client always sees a broken response.
 */
function armMidStreamReset(res: ServerResponse, afterEvents: number): void {
  let writes = 0;
  let cut = false;
  const write = res.write.bind(res) as (chunk: unknown) => boolean;
  const drop = (): void => {
    if (cut) return;
    cut = true;
    if (!res.headersSent) res.flushHeaders();
    const socket = res.socket;
    // Writes may still sit corked in the response (Node 24) until the next tick: cut after they reach the socket.
    if (socket) setImmediate(() => socket.end(() => socket.destroy()));
  };
  res.write = ((chunk: unknown) => {
    if (cut) return false;
    if (writes >= afterEvents) {
      drop();
      return false;
    }
    writes++;
    return write(chunk);
  }) as typeof res.write;
  res.end = ((chunk?: unknown) => {
    if (cut) return res;
    if (writes === 0 && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) {
      const bytes = Buffer.from(chunk);
      write(bytes.subarray(0, bytes.length >> 1));
    } else if (chunk !== undefined && typeof chunk !== 'function' && writes < afterEvents) {
      write(chunk);
    }
    drop();
    return res;
  }) as typeof res.end;
}
