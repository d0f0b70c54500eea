/**
 * The floor the gateway is measured against: the barest Node proxy that must read the body. node:http,
 * JSON.parse of the body, a Map lookup of the model, an undici Pool per vendor, and the response piped
 * back with `.pipe()` plus error and close listeners (not stream.pipeline, which costs an AbortController
 * per call on Node 20). A multipart upload is not buffered: the model field is read from the first chunk,
 * which is put back, and the request itself is streamed on. No auth, no validation, no usage: everything
 * the gateway adds is its tax. A model of an Anthropic-protocol vendor gets the barest translation of a
 * streamed chat (bench/floor-translate.ts): what translating costs before any gateway work.
 *
 * Usage: `node --import tsx bench/floor-proxy.ts --map FILE --port N` (FILE from bench/config.ts).
 * Serves `GET /healthz` for readiness, like the gateway.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { Pool, type Dispatcher } from 'undici';
import type { FloorMap } from './config.ts';
import { defineMessagesRequest, pipeTranslated } from './floor-translate.ts';

/** Where the floor sends one model: the vendor's pool, base path, key and auth header, and whether it translates. */
interface FloorTarget {
  pool: Pool;
  basePath: string;
  key: string;
  authorization: string;
  translates: boolean;
}

/** The public prefix every client path starts with (replaced by the vendor's base path). */
const PUBLIC_PREFIX = '/v1';
const MODEL_FIELD = 'name="model"\r\n\r\n';

/** Builds the model table of a floor map: one Pool per vendor, one Map entry per model. */
export function createFloorTable(map: FloorMap, env: NodeJS.ProcessEnv): Map<string, FloorTarget> {
  const vendors = new Map<string, FloorTarget>();
  for (const [name, vendor] of Object.entries(map.vendors)) {
    const url = new URL(vendor.baseUrl);
    const pool = new Pool(url.origin, {
      connections: vendor.connections,
      keepAliveTimeout: 30_000,
      headersTimeout: 600_000,
      bodyTimeout: 600_000,
    });
    const key = env[vendor.keyEnv] ?? '';
    const basePath = url.pathname.replace(/\/+$/, '');
    vendors.set(name, { pool, basePath, key, authorization: `Bearer ${key}`, translates: vendor.protocol === 'anthropic' });
  }
  const table = new Map<string, FloorTarget>();
  for (const [model, vendor] of Object.entries(map.models)) table.set(model, vendors.get(vendor)!);
  return table;
}

function sendStatus(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function pipeResponse(res: ServerResponse, response: Dispatcher.ResponseData): void {
  const headers: Record<string, string> = {};
  const type = response.headers['content-type'];
  const length = response.headers['content-length'];
  if (typeof type === 'string') headers['content-type'] = type;
  if (typeof length === 'string') headers['content-length'] = length;
  res.writeHead(response.statusCode, headers);
  const body = response.body;
  body.on('error', () => res.destroy());
  res.on('close', () => {
    if (!body.readableEnded) body.destroy();
  });
  body.pipe(res);
}

function forward(
  req: IncomingMessage,
  res: ServerResponse,
  target: FloorTarget,
  body: Dispatcher.DispatchOptions['body'],
  contentLength?: string,
): void {
  const headers: Record<string, string> = {
    'content-type': req.headers['content-type'] ?? 'application/json',
    authorization: target.authorization,
  };
  if (contentLength !== undefined) headers['content-length'] = contentLength;
  const path = target.basePath + (req.url ?? '/').slice(PUBLIC_PREFIX.length);
  target.pool.request({ path, method: 'POST', headers, body }).then(
    (response) => pipeResponse(res, response),
    () => (res.headersSent ? res.destroy() : sendStatus(res, 502, 'upstream failed')),
  );
}

/**
 * Sends a parsed chat request to an Anthropic-protocol vendor as a messages request and streams the answer
 * back as chat chunks (a refusal is piped as it came). The floor translates streams only: 400 otherwise.
 */
function forwardTranslated(res: ServerResponse, target: FloorTarget, chat: Record<string, any>, model: string): void {
  if (chat.stream !== true) return sendStatus(res, 400, 'the floor translates streams only');
  target.pool
    .request({
      path: `${target.basePath}/v1/messages`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': target.key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(defineMessagesRequest(chat, model)),
    })
    .then(
      (response) => (response.statusCode === 200 ? pipeTranslated(res, response) : pipeResponse(res, response)),
      () => (res.headersSent ? res.destroy() : sendStatus(res, 502, 'upstream failed')),
    );
}

/** JSON bodies: read whole, JSON.parse, look the model up, forward the original bytes (or translate). */
function serveJson(req: IncomingMessage, res: ServerResponse, table: Map<string, FloorTarget>): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const raw = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    let body: any;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return sendStatus(res, 400, 'invalid json');
    }
    const model = body?.model;
    const target = typeof model === 'string' ? table.get(model) : undefined;
    if (!target) return sendStatus(res, 404, 'unknown model');
    if (target.translates) return forwardTranslated(res, target, body, model);
    forward(req, res, target, raw, String(raw.length));
  });
}

/** Reads the model field out of the first chunk of a multipart body (the bench sends it first). */
function readModelField(chunk: Buffer): string | undefined {
  const at = chunk.indexOf(MODEL_FIELD);
  if (at === -1) return undefined;
  const start = at + MODEL_FIELD.length;
  const end = chunk.indexOf('\r\n', start);
  return end === -1 ? undefined : chunk.toString('utf8', start, end);
}

/** Multipart bodies: the first chunk names the model; the body is streamed on without buffering. */
function serveMultipart(req: IncomingMessage, res: ServerResponse, table: Map<string, FloorTarget>): void {
  req.once('data', (first: Buffer) => {
    req.pause();
    const model = readModelField(first);
    const target = model === undefined ? undefined : table.get(model);
    if (!target) {
      req.resume();
      return sendStatus(res, 404, 'unknown model');
    }
    req.unshift(first);
    forward(req, res, target, req, req.headers['content-length']);
  });
}

/** Creates the floor's request listener over a model table. */
export function createFloorListener(table: Map<string, FloorTarget>) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method === 'GET' && req.url === '/healthz') return sendStatus(res, 200, 'ok');
    if (req.method !== 'POST') return sendStatus(res, 405, 'method not allowed');
    if (req.headers['content-type']?.startsWith('multipart/')) return serveMultipart(req, res, table);
    serveJson(req, res, table);
  };
}

async function startFloor(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { map: { type: 'string' }, port: { type: 'string' } } });
  if (!values.map) throw new Error('usage: floor-proxy.ts --map FILE [--port N]');
  const map = JSON.parse(readFileSync(values.map, 'utf8')) as FloorMap;
  const server = createServer(createFloorListener(createFloorTable(map, process.env)));
  server.keepAliveTimeout = 65_000;
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(Number(values.port ?? 0), '127.0.0.1', resolve));
  const stop = (): void => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  startFloor(process.argv.slice(2)).catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
