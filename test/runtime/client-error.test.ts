import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { sendRawBytes } from '../helpers/send-raw-bytes.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => config);
  // Short enough for a test: headers that never finish are cut after 300 ms (checked every second or so by Node).
  gw.gateway.server.headersTimeout = 300;
});
afterAll(() => gw.close());

/** Checks an answer is the gateway's JSON error with an x-request-id, and returns its error object. */
function readError(answer: string, status: number): any {
  expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
  const [head, body] = answer.split('\r\n\r\n');
  expect(head).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/);
  expect(head).toMatch(/\r\ncontent-type: application\/json\r\n/);
  return JSON.parse(body).error;
}

describe("Node's own rejections", () => {
  it('answers a request the HTTP parser rejects with 400 in the gateway JSON', async () => {
    const error = readError(await sendRawBytes(gw.url, 'GET /v1/models HTTP/1.1\r\nhost: x\r\nbad header line\r\n\r\n'), 400);
    expect(error).toMatchObject({ code: 'malformed_request', type: 'invalid_request_error' });
  });

  it('answers headers over the size limit with 431 in the gateway JSON', async () => {
    const answer = await sendRawBytes(gw.url, `GET /v1/models HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(readError(answer, 431)).toMatchObject({ code: 'headers_too_large' });
  });

  it('answers headers that never finish with 408 in the gateway JSON', async () => {
    const answer = await sendRawBytes(gw.url, 'GET /v1/models HTTP/1.1\r\nhost: x\r\nx-slow: a', { end: false });
    expect(readError(answer, 408)).toMatchObject({ code: 'request_timeout', message: 'The request did not arrive in time.' });
  }, 10_000);

  it('keeps serving after each of them', async () => {
    const response = await fetch(`${gw.url}/v1/models`, { headers: { authorization: `Bearer ${gw.key}` } });
    expect(response.status).toBe(200);
  });
});
