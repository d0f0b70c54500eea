import { connect } from 'node:net';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.ts';
import { CLIENT_KEY, VENDOR_SECRET, servers, bearer, startVendor, startGateway, openClient, openRefused, waitFor } from './realtime-harness.ts';

describe('proxyRealtime: refusals and vendor failures answered on the socket', () => {
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
});
