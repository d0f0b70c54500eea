import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRawBytes } from '../helpers/send-raw-bytes.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

function splitAnswer(answer: string) {
  const at = answer.indexOf('\r\n\r\n');
  return { head: answer.slice(0, at), body: answer.slice(at + 4) };
}

describe('the answer to a request the HTTP parser rejects', () => {
  it('is a complete HTTP/1.1 answer: status text, exact content-length, connection close, and the message', async () => {
    const { head, body } = splitAnswer(await sendRawBytes(gw.url, 'GET /v1/models HTTP/1.1\r\nhost: x\r\nbad header line\r\n\r\n'));
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(head).toContain('\r\nconnection: close');
    expect(head).toContain(`\r\ncontent-length: ${Buffer.byteLength(body)}`);
    expect(JSON.parse(body).error).toMatchObject({
      message: 'The request is not valid HTTP/1.1.',
      type: 'invalid_request_error',
      code: 'malformed_request',
    });
    const id = /\r\nx-request-id: ([0-9a-f-]{36})/.exec(head)![1];
    expect(JSON.parse(body).error.message).not.toContain(id);
  });

  it('names oversized headers and a timeout in its message', async () => {
    const big = splitAnswer(await sendRawBytes(gw.url, `GET /v1/models HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(big.head.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(JSON.parse(big.body).error.message).toBe('The request headers are too large.');
  });

  it('answers chunk extensions over Node limit 413 request_too_large in the caller style, with no vendor call', async () => {
    const before = gw.sims.openai.received.length;
    const request =
      `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${gw.key}\r\n` +
      `content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n5;ext=${'a'.repeat(20_000)}\r\n{"a":\r\n`;
    const { head, body } = splitAnswer(await sendRawBytes(gw.url, request));
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
    expect(head).toMatch(/\r\nx-request-id: [0-9a-f-]{36}/);
    expect(JSON.parse(body).error).toMatchObject({
      code: 'request_too_large',
      message: 'The chunk extensions of the request body are too large.',
    });
    expect(gw.sims.openai.received.length).toBe(before);
  });

  it('answers an upload cut part way with connection: close, in the caller style', async () => {
    const body = JSON.stringify({ model: 'sim-anthropic-chat', messages: [{ role: 'user', content: 'hi' }] });
    const request =
      `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${gw.key}\r\n` +
      `content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 10)}`;
    const { head, body: answer } = splitAnswer(await sendRawBytes(gw.url, request));
    expect(head.split('\r\n')[0]).toMatch(/^HTTP\/1\.1 400 /);
    expect(head.toLowerCase()).toContain('\r\nconnection: close');
    expect(JSON.parse(answer).error.type).toBe('invalid_request_error');
  });
});
