import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

/** A realtime vendor that answers each text frame with an error event quoting the credential of its handshake. */
let vendor: Server;
const handshakes: string[] = [];
let gw: TestGateway;

beforeAll(async () => {
  const wss = new WebSocketServer({ noServer: true });
  vendor = createServer((_req, res) => res.writeHead(426).end());
  vendor.on('upgrade', (req, socket, head) => {
    const auth = String(req.headers.authorization ?? '');
    handshakes.push(auth);
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('message', (data) => {
        const error = { type: 'error', error: { type: 'invalid_request_error', message: `${data} refused for ${auth}` } };
        ws.send(JSON.stringify(error));
        ws.send(JSON.stringify({ type: 'session.updated', session: { note: 'still here' } }));
      });
    });
  });
  await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
  gw = await startTestGateway();
  const base = gw.gateway.getSnapshot().config;
  const url = `http://127.0.0.1:${(vendor.address() as AddressInfo).port}/v1`;
  const config: CompiledConfig = {
    ...base,
    vendors: { ...base.vendors, 'leak-rt': { ...base.vendors.openai, name: 'leak-rt', baseUrl: url } },
    models: { ...base.models, 'leak-rt': { ...base.models['gpt-realtime'], id: 'leak-rt', targets: [{ vendor: 'leak-rt', upstream: 'gpt-realtime', weight: 1 }] } },
  };
  gw.gateway.reload(config);
});
afterAll(async () => {
  await gw.close();
  vendor.closeAllConnections();
  await new Promise((resolve) => vendor.close(resolve));
});

describe('a realtime session whose vendor quotes the gateway key in an error event', () => {
  it('relays the error event with the key redacted and the other events as they are', async () => {
    const client = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/realtime?model=leak-rt`, { headers: { authorization: `Bearer ${gw.key}` } });
    const frames: string[] = [];
    await new Promise<void>((resolve, reject) => {
      client.once('error', reject);
      client.once('open', () => client.send('session.update'));
      client.on('message', (data) => {
        frames.push(String(data));
        if (frames.length === 2) resolve();
      });
    });
    client.close();
    const vendorKey = handshakes[0].replace('Bearer ', '');
    expect(vendorKey.length).toBeGreaterThan(8);
    expect(frames.join('\n')).not.toContain(vendorKey);
    expect(JSON.parse(frames[0])).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'session.update refused for Bearer [redacted]' } });
    expect(JSON.parse(frames[1])).toEqual({ type: 'session.updated', session: { note: 'still here' } });
  });
});
