import { connect } from 'node:net';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { CLIENT_KEY, VENDOR_SECRET, CREDENTIAL_PREFIX, bearer, startVendor, startGateway, openClient, waitFor } from './realtime-harness.ts';

describe('proxyRealtime: frames, subprotocols and closes relayed both ways', () => {
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
