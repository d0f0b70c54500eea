import { createHash } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

/** A gateway with a 2 s body deadline, a 1 MiB body limit and a key limited to 5 requests in flight. */
let gw: TestGateway;
const SLOTS_KEY = 'sk-read-body-slots';
const LIMIT = 1024 * 1024;

beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => ({
    ...config,
    server: { ...config.server, bodyTimeoutMs: 2000, bodyLimitBytes: LIMIT },
    keys: [
      ...config.keys,
      { name: 'slots', secret: { sha256: createHash('sha256').update(SLOTS_KEY).digest('hex') }, models: ['*'], limits: { concurrency: 5 }, strict: false },
    ],
  }));
});
afterAll(() => gw.close());

const CHAT = JSON.stringify({ model: 'sim-openai-chat', messages: [{ role: 'user', content: 'hi' }] });

/** Opens a connection that sends a chat request's headers, then one body byte per second. */
function openDrip(key: string): { socket: Socket; reply: Promise<string>; stop(): void } {
  const socket = connect(Number(new URL(gw.url).port), '127.0.0.1');
  socket.write(
    `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\ncontent-length: ${CHAT.length}\r\n\r\n`,
  );
  let sent = 0;
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write(CHAT[sent++]);
  }, 1000);
  socket.on('error', () => undefined);
  const reply = new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk;
      if (/\r\n\r\n[\s\S]*\}$/.test(text)) resolve(text);
    });
    socket.on('close', () => resolve(text));
  });
  return { socket, reply, stop: () => (clearInterval(timer), socket.destroy()) };
}

async function chat(key: string) {
  const response = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: CHAT,
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('the body deadline', () => {
  it('answers a 1 byte/s drip 408 in its style within body_timeout + 1 s, and the vendor is never called', async () => {
    gw.sims.openai.reset();
    const started = Date.now();
    const drip = openDrip(gw.key);
    const reply = await drip.reply;
    drip.stop();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(reply).toMatch(/x-request-id: [0-9a-f-]{36}/);
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)).error).toMatchObject({ code: 'request_timeout' });
    expect(gw.sims.openai.received).toHaveLength(0);
  });

  it("serves a key's normal requests while 150 drips of that key are open (the slot is taken after the body)", async () => {
    const drips = Array.from({ length: 150 }, () => openDrip(SLOTS_KEY));
    try {
      await sleep(300);
      const replies = await Promise.all([1, 2, 3, 4, 5].map(() => chat(SLOTS_KEY)));
      expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200]);
      expect(replies[0].body.object).toBe('chat.completion');
    } finally {
      for (const drip of drips) drip.stop();
    }
  });
});
