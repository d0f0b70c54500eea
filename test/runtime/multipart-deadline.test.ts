import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

/** A gateway whose request bodies must arrive within 1.5 s of the headers. */
let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => ({ ...config, server: { ...config.server, bodyTimeoutMs: 1500 } }));
});
afterAll(() => gw.close());

/** Sends a multipart transcription upload: `head` at once, then one byte every 200 ms; resolves with the answer. */
function dripUpload(head: string): Promise<{ answer: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(gw.url).port), '127.0.0.1');
    socket.write(
      `POST /v1/audio/transcriptions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${gw.key}\r\n` +
        `content-type: multipart/form-data; boundary=XyZ\r\ncontent-length: 100000\r\n\r\n${head}`,
    );
    const timer = setInterval(() => socket.write('a'), 200);
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, ms: Date.now() - started });
    });
  });
}

describe('a multipart upload', () => {
  it('that drips before its model field is answered 408 in the OpenAI shape by the body deadline', async () => {
    gw.sims.openai.reset();
    const { answer, ms } = await dripUpload('--XyZ\r\ncontent-disposition: form-data; name="file"; filename="a.wav"\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error.code).toBe('request_timeout');
    expect(ms).toBeLessThan(1500 + 2500);
    expect(gw.sims.openai.received).toHaveLength(0);
  });

  it('that drips after its model field, while it is forwarded, is cut by the body deadline', async () => {
    gw.sims.openai.reset();
    const { answer, ms } = await dripUpload('--XyZ\r\ncontent-disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--XyZ\r\ncontent-disposition: form-data; name="file"; filename="a.wav"\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeLessThan(1500 + 2500);
    expect(gw.events.at(-1)).toMatchObject({ op: 'audio-transcriptions', status: 408, error: 'request_timeout' });
  });
});
