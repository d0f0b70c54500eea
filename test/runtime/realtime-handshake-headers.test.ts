import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

describe('a realtime handshake', () => {
  it('answers its 101 with the x-request-id of its usage event and never passes the client ?key= to the vendor', async () => {
    const url = `${gw.url.replace('http', 'ws')}/v1/realtime?model=gpt-realtime&key=${gw.key}`;
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${gw.key}` } });
    const firstMessage = new Promise((resolve) => socket.once('message', resolve));
    const requestId = await new Promise<string | undefined>((resolve, reject) => {
      socket.once('upgrade', (response) => resolve(response.headers['x-request-id'] as string | undefined));
      socket.once('error', reject);
    });
    await firstMessage;
    const event = gw.nextEvent();
    socket.close();
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await event).requestId).toBe(requestId);
    const handshake = gw.sims.openai.received.find((request) => request.url.startsWith('/v1/realtime'));
    expect(handshake?.url).toContain('model=');
    expect(handshake?.url).not.toContain('key=');
    expect(handshake?.url).not.toContain(gw.key);
  });
});
