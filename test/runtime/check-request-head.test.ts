import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRawBytes } from '../helpers/send-raw-bytes.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

/** Every request the simulated vendors received so far. */
function countVendorCalls(): number {
  return Object.values(gw.sims).reduce((sum, sim) => sum + ((sim as { received?: unknown[] }).received?.length ?? 0), 0);
}

function readAnswer(answer: string) {
  const [head, body] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), head, body: JSON.parse(body) };
}

const MESSAGE = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });

function messagesRequest(extra: string, body = MESSAGE, length = Buffer.byteLength(MESSAGE)): string {
  return `POST /v1/messages HTTP/1.1\r\n${extra}x-api-key: ${gw.key}\r\nanthropic-version: 2023-06-01\r\n` +
    `content-type: application/json\r\ncontent-length: ${length}\r\n\r\n${body}`;
}

describe('what Node would answer with an empty body is answered in the caller style', () => {
  it('answers an HTTP/1.1 request without Host with 400 missing_host, before any vendor call', async () => {
    const before = countVendorCalls();
    const answer = readAnswer(await sendRawBytes(gw.url, messagesRequest('')));
    expect(answer.status).toBe(400);
    expect(answer.head).toMatch(/\r\nx-request-id: [0-9a-f-]{36}/);
    expect(answer.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(answer.body.error.message).toContain('Host');
    expect(countVendorCalls()).toBe(before);
  });

  it('answers an Expect other than 100-continue with 417 in the caller style, before any vendor call', async () => {
    const before = countVendorCalls();
    const answer = readAnswer(await sendRawBytes(gw.url, messagesRequest('host: x\r\nexpect: 200-ok\r\n')));
    expect(answer.status).toBe(417);
    expect(answer.head).toMatch(/\r\nx-request-id: [0-9a-f-]{36}/);
    expect(answer.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(countVendorCalls()).toBe(before);
  });

  it('still serves a request that expects 100-continue', async () => {
    const raw = await sendRawBytes(gw.url, messagesRequest('host: x\r\nconnection: close\r\nexpect: 100-continue\r\n'), { end: false });
    expect(raw.startsWith('HTTP/1.1 100 Continue\r\n\r\n')).toBe(true);
    const answer = readAnswer(raw.slice('HTTP/1.1 100 Continue\r\n\r\n'.length));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ type: 'message', role: 'assistant' });
  });

  it('answers an upload cut part way (half-closed) in the caller style with its request id, before any vendor call', async () => {
    const before = countVendorCalls();
    const answer = readAnswer(await sendRawBytes(gw.url, messagesRequest('host: x\r\n', MESSAGE.slice(0, 20))));
    expect(answer.status).toBe(400);
    expect(answer.head).toMatch(/\r\nx-request-id: [0-9a-f-]{36}/);
    expect(answer.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(countVendorCalls()).toBe(before);
  });
});
