import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

const LIMIT = 16 * 1024;
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => ({ ...config, server: { ...config.server, bodyLimitBytes: LIMIT } }));
});
afterAll(() => gw.close());

/** Opens a raw connection and writes the head of a chat request with `contentLength` and the first body bytes. */
function startRawRequest(contentLength: number, firstBytes: string) {
  const { port } = new URL(gw.url);
  const socket = connect(Number(port), '127.0.0.1');
  let answer = '';
  socket.on('data', (data) => (answer += data.toString()));
  socket.on('error', () => undefined);
  socket.write(
    `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${gw.key}\r\n` +
      `content-type: application/json\r\ncontent-length: ${contentLength}\r\n\r\n${firstBytes}`,
  );
  return { socket, answer: () => answer };
}

describe('reading a request body', () => {
  it('a declared content-length over the limit is answered 413 at once, without waiting for the body', async () => {
    const raw = startRawRequest(LIMIT * 10, '{"model":');
    const closed = new Promise<void>((resolve) => raw.socket.on('close', () => resolve()));
    await closed;
    expect(raw.answer()).toMatch(/^HTTP\/1\.1 413 /);
    expect(raw.answer()).toContain('"code":"request_too_large"');
  });

  it('a client that closes in the middle of its body is answered 400 (the upload ended early: a half-closed client can still read it), and the gateway goes on serving', async () => {
    const event = gw.nextEvent();
    const raw = startRawRequest(1000, '{"model":"sim-openai-chat","messages":');
    await new Promise((resolve) => setTimeout(resolve, 50));
    raw.socket.destroy();
    expect(await event).toMatchObject({ status: 400, model: undefined });
    const next = await fetch(`${gw.url}/v1/models`, { headers: { authorization: `Bearer ${gw.key}` } });
    expect(next.status).toBe(200);
  });
});
