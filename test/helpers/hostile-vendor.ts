import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Protocol } from '../../src/config/types.ts';
import type { VendorCall } from '../fuzz/vendor-call.ts';
import { formatRealtimeError, formatStreamError, formatStreamEvent, formatVendorError } from './hostile-vendor-wire.ts';

/**
 * How a hostile vendor misbehaves, chosen per request by the upstream model name `mode-<mode>` found in the
 * request's URL or body (so concurrent requests each get their own mode):
 * - `echo-<status>`: that error status, its message quoting every credential the vendor received;
 * - `echo-stream`: a 200 stream with one content event, then an in-stream error quoting the credentials
 *   (a request that is no stream gets `echo-500`); over WebSocket: accepts, then sends such an error event;
 * - `echo-framed`: the same stream sent whole, framed by its content-length (as a buffering proxy would): the
 *   gateway removes the credentials, so the length no longer frames what it relays;
 * - `garbage`: 200 whose body is neither JSON nor SSE; `cut`: headers and part of a body, then a reset;
 * - `stall`: headers and part of a body, then silence; `hang`: never answers.
 */
export type HostileMode = `echo-${number}` | 'echo-stream' | 'echo-framed' | 'garbage' | 'cut' | 'stall' | 'hang';

/** Every mode a fuzz case can pick. */
export const HOSTILE_MODES: HostileMode[] = ['echo-400', 'echo-401', 'echo-404', 'echo-429', 'echo-500', 'echo-503', 'echo-stream', 'echo-framed', 'garbage', 'cut', 'stall', 'hang'];

/** A running hostile vendor: a real HTTP server on 127.0.0.1 speaking `protocol` badly. */
export interface HostileVendor {
  url: string;
  close(): Promise<void>;
}

const MODE = /mode-(echo-\d{3}|echo-stream|echo-framed|garbage|cut|stall|hang)/;
const GARBAGE = '<html><body>502 hostile garbage { "not": json';

/** Everything a vendor received that carries a credential: auth headers and the full URL (query keys). */
export function quoteCredentials(req: IncomingMessage): string {
  const { authorization, 'x-api-key': apiKey, 'x-goog-api-key': googKey } = req.headers;
  return `bad request for key ${authorization ?? ''} x-api-key=${apiKey ?? ''} x-goog-api-key=${googKey ?? ''} at ${req.url}`;
}

/**
 * Starts a hostile vendor of `protocol` (named `name` in the calls it records onto `calls`). It never checks
 * the credentials it gets: it echoes them, so that a gateway relaying vendor text shows the leak.
 */
export async function startHostileVendor(name: string, protocol: Protocol, calls: VendorCall[]): Promise<HostileVendor> {
  const held = new Set<Duplex>();
  const server = createServer((req, res) => {
    const call: VendorCall = { vendor: name, hostile: true, method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, complete: false, settled: false };
    calls.push(call);
    held.add(req.socket);
    res.on('close', () => (call.settled = true));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answer(protocol, req, Buffer.concat(chunks).toString('latin1'), res, call));
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const call: VendorCall = { vendor: name, hostile: true, method: 'GET', url: req.url ?? '/', headers: req.headers, complete: false, settled: false };
    calls.push(call);
    held.add(socket);
    socket.on('error', () => socket.destroy()).on('close', () => (call.settled = true));
    const mode = MODE.exec(req.url ?? '')?.[1] ?? 'echo-400';
    if (mode === 'hang') return;
    if (mode === 'cut') return void socket.destroy();
    if (mode === 'echo-stream' || mode === 'echo-framed') {
      call.status = 101;
      return wss.handleUpgrade(req, socket, head, (ws) => ws.send(formatRealtimeError(quoteCredentials(req)), () => ws.close(1011)));
    }
    const status = mode === 'garbage' ? 200 : Number(mode.slice(5));
    const body = mode === 'garbage' ? GARBAGE : JSON.stringify(formatVendorError(protocol, status, quoteCredentials(req)));
    call.status = status;
    socket.end(`HTTP/1.1 ${status} Hostile\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close() {
      for (const socket of held) socket.destroy();
      wss.close();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function answer(protocol: Protocol, req: IncomingMessage, body: string, res: ServerResponse, call: VendorCall): void {
  const mode = MODE.exec(req.url ?? '')?.[1] ?? MODE.exec(body)?.[1] ?? 'echo-400';
  const stream = /"stream"\s*:\s*true/.test(body) || /stream|alt=sse/i.test(req.url ?? '');
  const sse = { 'content-type': 'text/event-stream' };
  if (mode === 'hang') return;
  const streamed = mode === 'echo-stream' || mode === 'echo-framed';
  if (mode.startsWith('echo-') && (!streamed || !stream)) {
    const status = streamed ? 500 : Number(mode.slice(5));
    call.status = status;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(formatVendorError(protocol, status, quoteCredentials(req))), () => (call.complete = true));
    return;
  }
  call.status = 200;
  if (mode === 'echo-framed') {
    const whole = formatStreamEvent(protocol) + formatStreamError(protocol, quoteCredentials(req));
    res.writeHead(200, { ...sse, 'content-length': String(Buffer.byteLength(whole)) });
    res.end(whole, () => (call.complete = true));
    return;
  }
  if (mode === 'echo-stream') {
    res.writeHead(200, sse);
    res.write(formatStreamEvent(protocol));
    res.end(formatStreamError(protocol, quoteCredentials(req)), () => (call.complete = true));
    return;
  }
  if (mode === 'garbage') {
    res.writeHead(200, stream ? sse : { 'content-type': 'application/json' });
    res.end(stream ? `data: ${GARBAGE}\n\n${GARBAGE}\n\n` : GARBAGE, () => (call.complete = true));
    return;
  }
  // cut and stall: part of an answer, then a reset or silence.
  const part = stream ? formatStreamEvent(protocol) : '{"id":"hostile-1","object":"chat.completion","choices":[{"index":0,"mess';
  res.writeHead(200, stream ? sse : { 'content-type': 'application/json', 'content-length': '4096' });
  res.write(part);
  if (mode === 'cut') setTimeout(() => res.destroy(), 10);
}
