import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findLeaks, LEAK_ENV, startLeakyGateway, type LeakStyle, type LeakyGateway } from '../helpers/start-leaky-gateway.ts';
import type { LeakProtocol } from '../helpers/start-leaky-vendor.ts';

let gw: LeakyGateway;

beforeAll(async () => {
  gw = await startLeakyGateway();
  // The vendor also quotes the gateway's other secrets, as a misconfigured vendor or proxy could.
  gw.vendor.extra = `(client ${LEAK_ENV.LEAK_CLIENT_KEY}, task ${LEAK_ENV.GATEWAY_TASK_SECRET}, store ${LEAK_ENV.LEAK_REDIS_URL})`;
});
afterAll(() => gw.close());
beforeEach(() => {
  gw.vendor.received.length = 0;
});

const STYLES: LeakStyle[] = ['openai', 'anthropic', 'gemini'];
const PROTOCOLS: LeakProtocol[] = ['openai', 'anthropic', 'gemini'];
const VENDOR_KEYS: Record<LeakProtocol, string> = {
  openai: LEAK_ENV.LEAK_OPENAI_KEY,
  anthropic: LEAK_ENV.LEAK_ANTHROPIC_KEY,
  gemini: LEAK_ENV.LEAK_GEMINI_KEY,
};

/** The error message of a JSON error body in the caller's style (its shape checked on the way). */
function readMessage(style: LeakStyle, status: number, body: any): string {
  if (style === 'anthropic') {
    expect(body.type).toBe('error');
    return body.error.message;
  }
  if (style === 'gemini') expect(body.error.code).toBe(status);
  else expect(typeof body.error.type).toBe('string');
  return body.error.message;
}

const CASES = STYLES.flatMap((style) =>
  PROTOCOLS.flatMap((protocol) => [400, 500].flatMap((status) => [false, true].map((stream) => ({ style, protocol, status: status as 400 | 500, stream })))),
);

describe('vendor error answers that quote the gateway secrets', () => {
  it.each(CASES)(
    '$style client, $protocol vendor, HTTP $status (stream: $stream): the status and a readable message, no secret',
    async ({ style, protocol, status, stream }) => {
      gw.vendor.mode = status;
      const answer = await gw.call(style, protocol, stream);
      // The vendor got the gateway's key, so its message really quoted it.
      expect(gw.vendor.received).toHaveLength(1);
      expect(gw.vendor.received[0]).toMatchObject({ protocol, credential: VENDOR_KEYS[protocol], stream });
      expect(findLeaks(answer.headers + answer.body)).toEqual([]);
      expect(answer.status).toBe(status);
      const message = readMessage(style, status, JSON.parse(answer.body));
      expect(message).toContain('bad request for key Bearer [redacted]; retry at https://vendor.example/v1/x?key=[redacted]');
      expect(message).toContain('(client [redacted], task [redacted], store redis://:[redacted]@127.0.0.1:6390/0)');
    },
  );

  it('only the secrets are replaced: the rest of the vendor message is kept word for word', async () => {
    gw.vendor.mode = 400;
    const answer = await gw.call('openai', 'anthropic', false);
    expect(JSON.parse(answer.body).error.message).toBe(
      'bad request for key Bearer [redacted]; retry at https://vendor.example/v1/x?key=[redacted] {"auth":"[redacted]"} ' +
        '(client [redacted], task [redacted], store redis://:[redacted]@127.0.0.1:6390/0)',
    );
  });
});
