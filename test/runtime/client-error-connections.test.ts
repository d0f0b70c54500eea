import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';
import { waitFor } from '../helpers/wait-for.ts';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway(undefined, { simulators: { openai: { streamEvents: 20, streamIntervalMs: 100 } } });
});
afterAll(() => gw.close());

/** A raw connection to the gateway that records what it receives and whether it ended or errored. */
function openRaw(options: { allowHalfOpen?: boolean } = {}) {
  const socket: Socket = connect({ port: Number(new URL(gw.url).port), host: '127.0.0.1', allowHalfOpen: options.allowHalfOpen });
  const state = { text: '', ended: false, failed: false, closed: false };
  socket.on('data', (chunk) => (state.text += chunk));
  socket.on('end', () => (state.ended = true));
  socket.on('error', () => (state.failed = true));
  socket.on('close', () => (state.closed = true));
  return { socket, state };
}

describe('a request the HTTP parser rejects on a connection whose answer has begun', () => {
  it('closes the connection without writing a second answer into the stream being sent', async () => {
    const body = JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'one two three' }] });
    const { socket, state } = openRaw();
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${gw.key}\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await waitFor(() => state.text.includes('data: '));
    socket.write('NOT HTTP AT ALL\r\n\r\n');
    await waitFor(() => state.closed);
    expect(state.text.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    expect(state.text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(state.text).not.toContain('malformed_request');
    expect(state.text).not.toContain('data: [DONE]');
  });
});

describe('a rejected connection the client keeps open', () => {
  it('is answered, then closed by the gateway although the client neither sends more nor closes its side', async () => {
    const connections = () => new Promise<number>((resolve) => gw.gateway.server.getConnections((_error, count) => resolve(count)));
    const { socket, state } = openRaw({ allowHalfOpen: true });
    try {
      socket.write('GET /v1/models HTTP/1.1\r\nhost: x\r\nbad header line\r\n\r\n');
      await waitFor(() => state.ended);
      expect(state.text.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
      expect(await connections()).toBe(1);
      let open = 1;
      const poll = setInterval(() => void connections().then((count) => (open = count)), 50);
      try {
        await waitFor(() => open === 0, 10_000);
      } finally {
        clearInterval(poll);
      }
    } finally {
      socket.destroy();
    }
  });
});
