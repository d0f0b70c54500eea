import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { afterEach } from 'vitest';
import { GatewayError } from '../../src/errors.ts';
import { renderError } from '../../src/protocols/render-error.ts';
import { createRealtimeUpgradeHandler, type RealtimeOutcome } from '../../src/runtime/realtime.ts';

/**
 * What the realtime relay tests share: a WebSocket vendor that records handshakes, frames and closes, a gateway
 * server around createRealtimeUpgradeHandler, and clients; every server and socket is closed after each test
 * (importing this registers that clean-up in the importing file).
 */
export const CLIENT_KEY = 'client-key-123';
export const VENDOR_SECRET = 'vendor-secret-xyz';
export const CREDENTIAL_PREFIX = 'openai-insecure-api-key.';

export interface Frame {
  text: string;
  binary: boolean;
}

export interface Vendor {
  port: number;
  handshakes: IncomingMessage[];
  received: Frame[];
  closes: number[];
}

export const servers: Server[] = [];
export const sockets: WebSocket[] = [];

export async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * A realtime vendor: greets each session at once, echoes frames (kind preserved), closes with 4001 on
 * `close-me`, drops the TCP connection on `kill`, and refuses the path /reject with 401.
 */
export async function startVendor(): Promise<Vendor> {
  const vendor: Vendor = { port: 0, handshakes: [], received: [], closes: [] };
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => (offered.has('realtime') ? 'realtime' : false),
  });
  const server = createServer((_req, res) => res.writeHead(426).end());
  server.on('upgrade', (req, socket, head) => {
    vendor.handshakes.push(req);
    if (req.url?.startsWith('/reject')) {
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: 38\r\n\r\n{"error":{"message":"bad key vend-1"}}');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.send(JSON.stringify({ type: 'session.created' }));
      ws.on('message', (data, isBinary) => {
        const frame = { text: data.toString(), binary: isBinary };
        vendor.received.push(frame);
        if (frame.text === 'close-me') ws.close(4001, 'bye');
        else if (frame.text === 'kill') ws.terminate();
        else ws.send(data, { binary: isBinary });
      });
      ws.on('close', (code) => vendor.closes.push(code));
    });
  });
  vendor.port = await listen(server);
  return vendor;
}

interface Gateway {
  url: string;
  outcomes: RealtimeOutcome[];
}

/** A gateway whose authorize accepts CLIENT_KEY as bearer header or credential subprotocol. */
export async function startGateway(
  vendor: Vendor,
  upstreamPath = '/v1/realtime',
  before: (req: IncomingMessage) => Promise<void> = async () => undefined,
): Promise<Gateway> {
  const outcomes: RealtimeOutcome[] = [];
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on(
    'upgrade',
    createRealtimeUpgradeHandler(
      {
        async authorize(req) {
          await before(req);
          const protocols = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
          const fromProtocol = protocols.find((p) => p.startsWith(CREDENTIAL_PREFIX))?.slice(CREDENTIAL_PREFIX.length);
          const key = fromProtocol ?? req.headers.authorization?.replace(/^Bearer /, '');
          if (key !== CLIENT_KEY) throw new GatewayError(401, 'invalid_api_key', 'Incorrect API key provided.');
          const model = new URL(req.url!, 'http://gateway').searchParams.get('model');
          return {
            upstreamUrl: `ws://127.0.0.1:${vendor.port}${upstreamPath}?model=upstream-${model}`,
            headers: { authorization: `Bearer ${VENDOR_SECRET}`, 'openai-beta': 'realtime=v1' },
          };
        },
        renderError: (error) => {
          const rendered = renderError('openai', error, 'req-test-1');
          return { ...rendered, headers: { ...rendered.headers, 'x-request-id': 'req-test-1' } };
        },
        connectTimeoutMs: 2000,
      },
      (outcome) => outcomes.push(outcome),
    ),
  );
  const port = await listen(server);
  return { url: `ws://127.0.0.1:${port}/v1/realtime?model=rt-test`, outcomes };
}

/** Opens a client and collects every frame it receives. */
export function openClient(url: string, protocols: string[] = [], headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, protocols, { headers });
  sockets.push(ws);
  const frames: Frame[] = [];
  ws.on('message', (data, isBinary) => frames.push({ text: data.toString(), binary: isBinary }));
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return { ws, frames, opened, closed };
}

/** Connects a client expected to be refused; resolves with the HTTP status, headers and body. */
export function openRefused(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers });
  sockets.push(ws);
  ws.on('error', () => undefined);
  return new Promise<{ status: number; headers: IncomingMessage['headers']; body: any }>((resolve) => {
    ws.once('unexpected-response', async (_req, res) => {
      let text = '';
      for await (const chunk of res) text += chunk;
      resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) });
    });
  });
}

export async function waitFor(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const bearer = { authorization: `Bearer ${CLIENT_KEY}` };

afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await Promise.all(
    servers.splice(0).map((server) => {
      const closed = new Promise((r) => server.close(r));
      server.closeAllConnections();
      return closed;
    }),
  );
});
