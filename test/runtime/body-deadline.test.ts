import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

/** A gateway with a 1 s body deadline (the light twin of read-body.test.ts's drip tests, for mutation runs). */
let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => ({ ...config, server: { ...config.server, bodyTimeoutMs: 1000 } }));
});
afterAll(() => gw.close());

const CHAT = JSON.stringify({ model: 'sim-openai-chat', messages: [{ role: 'user', content: 'hi' }] });

/** Sends a chat request's headers and then its body one byte every 200 ms; resolves with all it was answered. */
function sendSlowly(): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(gw.url).port), '127.0.0.1');
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${gw.key}\r\ncontent-type: application/json\r\ncontent-length: ${CHAT.length}\r\n\r\n`,
    );
    let sent = 0;
    const timer = setInterval(() => !socket.destroyed && sent < CHAT.length && socket.write(CHAT[sent++]), 200);
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve(text);
    });
    setTimeout(() => socket.destroy(), 20_000).unref();
  });
}

describe('a body that does not arrive within server.body_timeout', () => {
  it('is answered 408 request_timeout with its message, and the vendor is never called', async () => {
    gw.sims.openai.reset();
    const answer = await sendSlowly();
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error).toMatchObject({
      code: 'request_timeout',
      message: 'The request body did not arrive in time.',
    });
    expect(gw.sims.openai.received).toHaveLength(0);
  });

  it('does not touch a body that arrives in time', async () => {
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: CHAT,
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { object: string }).object).toBe('chat.completion');
  });
});
