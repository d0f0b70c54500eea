import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

/** A chat request with `body`, headers and body in one write (how SDKs send a small request). */
function chatRequest(body: string, extra = ''): string {
  return (
    `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${gw.key}\r\ncontent-type: application/json\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`
  );
}

/** Sends `request` on `socket` and resolves with the head and body of the one answer it gets. */
function exchange(socket: Socket, request: string): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk;
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(text)?.[1]);
      if (text.length - end - 4 < length) return;
      socket.off('data', onData);
      resolve({ head: text.slice(0, end), body: text.slice(end + 4) });
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`connection closed after: ${text}`)));
    socket.write(request);
  });
}

describe('a refusal decided once the body is in', () => {
  it('keeps the connection open: malformed JSON, a failed validation, an unknown model, then a chat on the same connection', async () => {
    const socket = connect(Number(new URL(gw.url).port), '127.0.0.1');
    socket.on('error', () => undefined);
    const refusals = [
      ['{"model":', 400, 'invalid_json'],
      [JSON.stringify({ model: 'sim-openai-chat', messages: 'hi' }), 400, 'invalid_request'],
      [JSON.stringify({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] }), 404, 'model_not_found'],
    ] as const;
    for (const [body, status, code] of refusals) {
      const answer = await exchange(socket, chatRequest(body));
      expect([answer.head.split('\r\n')[0], JSON.parse(answer.body).error.code]).toEqual([`HTTP/1.1 ${status} ${status === 400 ? 'Bad Request' : 'Not Found'}`, code]);
      expect(answer.head.toLowerCase()).not.toContain('\r\nconnection: close');
      expect(answer.head).toMatch(/\r\nx-request-id: [0-9a-f-]{36}/);
    }
    const served = await exchange(socket, chatRequest(JSON.stringify({ model: 'sim-openai-chat', messages: [{ role: 'user', content: 'hi' }] })));
    expect(served.head.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(JSON.parse(served.body).object).toBe('chat.completion');
    socket.destroy();
  });

  it('closes the connection when the answer comes before the body (the client may still be sending)', async () => {
    const socket = connect(Number(new URL(gw.url).port), '127.0.0.1');
    socket.on('error', () => undefined);
    const body = JSON.stringify({ model: 'sim-openai-chat', messages: [{ role: 'user', content: 'hi' }] });
    // The headers promise more than is sent: the body is still arriving when the unknown key is refused.
    const head = chatRequest('', '').replace(`content-length: 0`, `content-length: ${body.length + 10}`).replace(`Bearer ${gw.key}`, 'Bearer sk-wrong');
    const answer = await exchange(socket, head + body);
    expect(answer.head.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized');
    expect(answer.head.toLowerCase()).toContain('\r\nconnection: close');
    socket.destroy();
  });
});
