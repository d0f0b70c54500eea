import { createServer, request, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { VendorCall } from './vendor-call.ts';

/** A relay in front of a simulator that records every call and the status the simulator answered. */
export interface RecordingRelay {
  /** The relay's base URL (the simulator's base path kept). */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts a relay on 127.0.0.1 that forwards everything (WebSocket upgrades included) to the simulator at
 * `target` and pushes one {@link VendorCall} per request onto `calls`, so a test knows what a vendor
 * answered to each request the gateway made.
 */
export async function startRecordingRelay(vendor: string, target: string, calls: VendorCall[]): Promise<RecordingRelay> {
  const origin = new URL(target);
  const record = (req: IncomingMessage): VendorCall => {
    const call: VendorCall = { vendor, hostile: false, method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, complete: false, settled: false };
    calls.push(call);
    return call;
  };
  const server = createServer((req, res) => {
    const call = record(req);
    const upstream = request(
      { host: origin.hostname, port: origin.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        call.status = answer.statusCode;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => (call.complete = true));
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => {
      call.settled = true;
      upstream.destroy();
    });
    req.pipe(upstream);
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => relayUpgrade(record(req), req, socket, head, origin));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${origin.pathname.replace(/\/$/, '')}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Pipes an upgrade to the simulator byte for byte, reading the status of its handshake answer. */
function relayUpgrade(call: VendorCall, req: IncomingMessage, socket: Duplex, head: Buffer, origin: URL): void {
  const upstream = connect(Number(origin.port), origin.hostname);
  const lines = [`${req.method} ${req.url} HTTP/1.1`];
  for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
  upstream.write(lines.join('\r\n') + '\r\n\r\n');
  if (head.length) upstream.write(head);
  upstream.once('data', (chunk: Buffer) => {
    const status = /^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'));
    call.status = status ? Number(status[1]) : undefined;
    call.complete = true;
  });
  const end = () => {
    call.settled = true;
    socket.destroy();
    upstream.destroy();
  };
  upstream.on('error', end).on('close', end);
  socket.on('error', end).on('close', end);
  upstream.pipe(socket);
  socket.pipe(upstream);
}
