import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError, renderError } from '../../src/errors.ts';
import { createRealtimeUpgradeHandler, type RealtimeOutcome } from '../../src/runtime/realtime.ts';

const CLIENT_KEY = 'client-key-123';
const VENDOR_SECRET = 'vendor-secret-xyz';
const CREDENTIAL_PREFIX = 'openai-insecure-api-key.';

interface Frame {
  text: string;
  binary: boolean;
}

interface Vendor {
  port: number;
  handshakes: IncomingMessage[];
  received: Frame[];
  closes: number[];
}

const servers: Server[] = [];
const sockets: WebSocket[] = [];

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * A realtime vendor: greets each session at once, echoes frames (kind preserved), closes with 4001 on
 * `close-me`, drops the TCP connection on `kill`, and refuses the path /reject with 401.
 */
async function startVendor(): Promise<Vendor> {
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
async function startGateway(
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
function openClient(url: string, protocols: string[] = [], headers: Record<string, string> = {}) {
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
function openRefused(url: string, headers: Record<string, string> = {}) {
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

async function waitFor(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const bearer = { authorization: `Bearer ${CLIENT_KEY}` };

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

describe('proxyRealtime', () => {
  it('relays text and binary frames both ways in order, the vendor greeting included', async () => {
    const vendor = await startVendor();
    const gateway = await startGateway(vendor);
    const client = openClient(gateway.url, [], bearer);
    await client.opened;
    client.ws.send('{"type":"session.update"}');
    client.ws.send(Buffer.from([0, 1, 2, 250]), { binary: true });
    client.ws.send('{"type":"response.create"}');
    await waitFor(() => client.frames.length === 4);
    const sent = [
      { text: '{"type":"session.update"}', binary: false },
      { text: Buffer.from([0, 1, 2, 250]).toString(), binary: true },
      { text: '{"type":"response.create"}', binary: false },
    ];
    expect(client.frames).toEqual([{ text: '{"type":"session.created"}', binary: false }, ...sent]);
    expect(vendor.received).toEqual(sent);
    const handshake = vendor.handshakes[0];
    expect(handshake.url).toBe('/v1/realtime?model=upstream-rt-test');
    expect(handshake.headers.authorization).toBe(`Bearer ${VENDOR_SECRET}`);
    expect(handshake.headers['openai-beta']).toBe('realtime=v1');
    expect(JSON.stringify(handshake.headers)).not.toContain(CLIENT_KEY);
  });

  it('answers a failed authorization with the rendered HTTP 401 on the socket and never calls the vendor', async () => {
    const vendor = await startVendor();
    const gateway = await startGateway(vendor);
    const refused = await openRefused(gateway.url, { authorization: 'Bearer wrong' });
    expect(refused.status).toBe(401);
    expect(refused.headers['x-request-id']).toBe('req-test-1');
    expect(refused.body).toEqual({
      error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
    });
    expect(vendor.handshakes).toHaveLength(0);
    await waitFor(() => gateway.outcomes.length === 1);
    expect(gateway.outcomes[0]).toMatchObject({ status: 401, framesFromClient: 0 });
  });

  it('strips credential subprotocols before the vendor and answers the vendor-chosen one', async () => {
    const vendor = await startVendor();
    const gateway = await startGateway(vendor);
    const protocols = ['realtime', `${CREDENTIAL_PREFIX}${CLIENT_KEY}`, 'openai-beta.realtime-v1'];
    const client = openClient(gateway.url, protocols);
    await client.opened;
    expect(client.ws.protocol).toBe('realtime');
    const forwarded = String(vendor.handshakes[0].headers['sec-websocket-protocol']).split(',').map((p) => p.trim());
    expect(forwarded).toEqual(['realtime', 'openai-beta.realtime-v1']);
    expect(JSON.stringify(vendor.handshakes[0].headers)).not.toContain(CLIENT_KEY);
  });

  it('closes the client with the vendor close code and reason when the vendor closes', async () => {
    const vendor = await startVendor();
    const gateway = await startGateway(vendor);
    const client = openClient(gateway.url, [], bearer);
    await client.opened;
    client.ws.send('close-me');
    expect(await client.closed).toEqual({ code: 4001, reason: 'bye' });
    await waitFor(() => gateway.outcomes.length === 1);
    expect(gateway.outcomes[0]).toMatchObject({ status: 101, vendorCloseCode: 4001, framesFromClient: 1, framesFromVendor: 1 });
  });

  it('closes the vendor with the client close code when the client closes', async () => {
    const vendor = await startVendor();
    const gateway = await startGateway(vendor);
    const client = openClient(gateway.url, [], bearer);
    await client.opened;
    client.ws.close(4000, 'done');
    await waitFor(() => vendor.closes.length === 1);
    expect(vendor.closes).toEqual([4000]);
    expect((await client.closed).code).toBe(4000);
  });

  it('closes the client with 1014 when the vendor connection drops without a close frame', async () => {
    const vendor = await startVendor();
    const gateway = await startGateway(vendor);
    const client = openClient(gateway.url, [], bearer);
    await client.opened;
    client.ws.send('kill');
    expect((await client.closed).code).toBe(1014);
  });

  it('answers 502 upstream_auth_failed when the vendor refuses the gateway credentials', async () => {
    const vendor = await startVendor();
    const gateway = await startGateway(vendor, '/reject');
    const refused = await openRefused(gateway.url, bearer);
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe('upstream_auth_failed');
    expect(JSON.stringify(refused.body)).not.toContain('vend-1');
    expect(vendor.handshakes[0].headers.authorization).toBe(`Bearer ${VENDOR_SECRET}`);
  });

  it('answers 502 upstream_unreachable when the vendor cannot be reached', async () => {
    const vendor = await startVendor();
    const gateway = await startGateway(vendor);
    await Promise.all(servers.splice(0, 1).map((s) => new Promise((r) => s.close(r))));
    const refused = await openRefused(gateway.url, bearer);
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe('upstream_unreachable');
  });

  it('answers 400 to an upgrade request that is not a valid WebSocket handshake', async () => {
    const vendor = await startVendor();
    const gateway = await startGateway(vendor);
    const { port } = new URL(gateway.url);
    const raw = connect(Number(port), '127.0.0.1');
    raw.write(`GET /v1/realtime?model=x HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nAuthorization: Bearer ${CLIENT_KEY}\r\n\r\n`);
    let text = '';
    for await (const chunk of raw) text += chunk;
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).error.code).toBe('invalid_upgrade');
    expect(vendor.handshakes).toHaveLength(0);
  });

  it('answers 500 without crashing when authorize throws something other than a GatewayError', async () => {
    const vendor = await startVendor();
    const gateway = await startGateway(vendor, '/v1/realtime', async () => {
      throw new TypeError('boom with internals');
    });
    const refused = await openRefused(gateway.url, bearer);
    expect(refused.status).toBe(500);
    expect(refused.body.error.code).toBe('internal_error');
    expect(JSON.stringify(refused.body)).not.toContain('internals');
    expect(vendor.handshakes).toHaveLength(0);
  });

  it('never opens the vendor socket when the client leaves while authorize is pending', async () => {
    const vendor = await startVendor();
    let release!: () => void;
    const pending = new Promise<void>((r) => (release = r));
    let entered = false;
    const gateway = await startGateway(vendor, '/v1/realtime', async () => {
      entered = true;
      await pending;
    });
    const client = openClient(gateway.url, [], bearer);
    client.opened.catch(() => undefined);
    await waitFor(() => entered);
    client.ws.terminate();
    await client.closed;
    await new Promise((r) => setTimeout(r, 20));
    release();
    await waitFor(() => gateway.outcomes.length === 1);
    expect(gateway.outcomes[0]).toMatchObject({ status: 499 });
    expect(vendor.handshakes).toHaveLength(0);
  });

  it('keeps frame bytes a client sends before its handshake is answered and relays them first', async () => {
    const vendor = await startVendor();
    let entered = false;
    let release!: () => void;
    const pending = new Promise<void>((r) => (release = r));
    const gateway = await startGateway(vendor, '/v1/realtime', async () => {
      entered = true;
      await pending;
    });
    const { port } = new URL(gateway.url);
    const raw = connect(Number(port), '127.0.0.1');
    const payload = Buffer.from('{"type":"early"}');
    const mask = Buffer.from([1, 2, 3, 4]);
    const masked = payload.map((byte, i) => byte ^ mask[i % 4]);
    const frame = Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]);
    raw.write(
      'GET /v1/realtime?model=x HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
        `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${CLIENT_KEY}\r\n\r\n`,
    );
    let received = Buffer.alloc(0);
    raw.on('data', (chunk) => (received = Buffer.concat([received, chunk])));
    await waitFor(() => entered);
    raw.write(frame); // arrives while the upgrade is still pending
    await new Promise((r) => setTimeout(r, 30));
    release();
    await waitFor(() => vendor.received.length === 1);
    expect(vendor.received).toEqual([{ text: '{"type":"early"}', binary: false }]);
    await waitFor(() => received.includes('{"type":"early"}'));
    expect(received.toString()).toMatch(/^HTTP\/1\.1 101 Switching Protocols\r\n/);
    raw.destroy();
  });
});
