import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRawBytes } from '../helpers/send-raw-bytes.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

function readAnswer(answer: string) {
  const at = answer.indexOf('\r\n\r\n');
  return { status: Number(answer.split(' ')[1]), body: JSON.parse(answer.slice(at + 4)) };
}

const models = (version: string, extra = '') =>
  `GET /v1/models ${version}\r\nauthorization: Bearer ${gw.key}\r\nconnection: close\r\n${extra}\r\n`;

describe('the request head checks (OpenAI style: exact codes and messages)', () => {
  it('an HTTP/1.1 request without Host is 400 missing_host', async () => {
    const answer = readAnswer(await sendRawBytes(gw.url, models('HTTP/1.1')));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'missing_host', message: 'An HTTP/1.1 request must carry a Host header.' });
  });

  it('an HTTP/1.0 request needs no Host and is served', async () => {
    const answer = readAnswer(await sendRawBytes(gw.url, models('HTTP/1.0')));
    expect(answer.status).toBe(200);
    expect(answer.body.object).toBe('list');
  });

  it('an Expect other than 100-continue is 417 expectation_failed', async () => {
    const answer = readAnswer(await sendRawBytes(gw.url, models('HTTP/1.1', 'host: x\r\nexpect: 102-processing\r\n')));
    expect(answer.status).toBe(417);
    expect(answer.body.error).toMatchObject({
      code: 'expectation_failed',
      message: 'The only expectation the gateway meets is "Expect: 100-continue".',
    });
  });

  it('Expect: 100-continue is matched without regard to case', async () => {
    const raw = await sendRawBytes(gw.url, models('HTTP/1.1', 'host: x\r\nexpect: 100-Continue\r\n'));
    const answer = readAnswer(raw.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ''));
    expect(answer.status).toBe(200);
  });
});
