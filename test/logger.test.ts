import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, setLogSecrets } from '../src/logger.ts';
import { GatewayError } from '../src/errors.ts';
import { listSecrets } from '../src/runtime/secrets.ts';
import { findLeaks, LEAK_ENV, LEAK_REDIS_PASSWORD, startLeakyGateway, type LeakyGateway } from './helpers/start-leaky-gateway.ts';

/** A logger writing into `lines` (a pino destination to a buffer), as `gateway start` logs. */
function createCapturedLogger() {
  const lines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

let gw: LeakyGateway;
const { logger, lines } = createCapturedLogger();

beforeAll(async () => {
  gw = await startLeakyGateway({ onUsage: [(event) => logger.info(event, 'request')] });
  gw.vendor.extra = `(client ${LEAK_ENV.LEAK_CLIENT_KEY}, task ${LEAK_ENV.GATEWAY_TASK_SECRET}, store ${LEAK_ENV.LEAK_REDIS_URL})`;
  setLogSecrets(logger, listSecrets(gw.config, LEAK_ENV));
});
afterAll(() => gw.close());

const VENDOR_URL = () => `${gw.vendor.url}/gemini/v1beta/models/m:generateContent?key=${encodeURIComponent(LEAK_ENV.LEAK_GEMINI_KEY)}`;
const VENDOR_HEADERS = { authorization: `Bearer ${LEAK_ENV.LEAK_OPENAI_KEY}`, 'x-api-key': LEAK_ENV.LEAK_ANTHROPIC_KEY };

/** A failure as it is logged with its causes: a vendor URL carrying `?key=`, the store URL, the task secret, the client key. */
function createLeakyCause(): GatewayError {
  const inner = new Error(`connect failed for ${VENDOR_URL()}`);
  const middle = new Error(`store ${LEAK_ENV.LEAK_REDIS_URL} refused, task secret ${LEAK_ENV.GATEWAY_TASK_SECRET}`, { cause: inner });
  return new GatewayError(500, 'internal_error', `client key ${LEAK_ENV.LEAK_CLIENT_KEY} failed`, { cause: middle });
}

describe('log lines hold no secret', () => {
  it('the request line of a vendor error quoting the secrets, and the logged cause with its stack, have every secret redacted', async () => {
    gw.vendor.mode = 500;
    const answer = await gw.call('anthropic', 'gemini', false);
    expect(answer.status).toBe(500);
    expect(gw.vendor.received.at(-1)?.credential).toBe(LEAK_ENV.LEAK_GEMINI_KEY);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the usage event follows the response's close
    const cause = createLeakyCause();
    logger.error({ err: cause, status: 500, vendorRequest: { url: VENDOR_URL(), headers: VENDOR_HEADERS } }, 'request');
    logger.child({ requestId: 'r1' }).warn(`vendor said: ${gw.vendor.received.at(-1)!.path} ${LEAK_ENV.LEAK_OPENAI_KEY}`);

    const text = lines.join('');
    expect(findLeaks(text)).toEqual([]);
    const parsed = lines.map((line) => JSON.parse(line));
    expect(parsed.find((line) => line.msg === 'request' && line.status === 500 && line.vendor === 'leak-gemini')).toBeDefined();
    const failure = parsed.find((line) => line.err);
    // pino's error serializer joins the causes' messages: the vendor URL of the innermost one included.
    expect(failure.err.message).toMatch(/^client key \[redacted\] failed: store .*: connect failed for .*\?key=\[redacted\]$/);
    expect(failure.err.stack).toContain('client key [redacted] failed');
    expect(failure.err.stack).toContain('caused by: Error: store redis://:[redacted]@127.0.0.1:6390/0 refused, task secret [redacted]');
    expect(failure.vendorRequest.url).toMatch(/:generateContent\?key=\[redacted\]$/);
    expect(failure.vendorRequest.headers).toEqual({ authorization: 'Bearer [redacted]', 'x-api-key': '[redacted]' });
    expect(parsed.at(-1).msg).toBe(`vendor said: /gemini/v1beta/models/leak-gemini-upstream:generateContent?key=[redacted] [redacted]`);
  });

  it('redacts nothing before the secrets are set, and the secrets set last from then on', () => {
    const captured = createCapturedLogger();
    captured.logger.info(`before ${LEAK_REDIS_PASSWORD}`);
    setLogSecrets(captured.logger, [LEAK_REDIS_PASSWORD]);
    captured.logger.info(`after ${LEAK_REDIS_PASSWORD} ${LEAK_ENV.LEAK_CLIENT_KEY}`);
    setLogSecrets(captured.logger, [LEAK_ENV.LEAK_CLIENT_KEY]);
    captured.logger.info(`reloaded ${LEAK_ENV.LEAK_CLIENT_KEY}`);
    expect(captured.lines.map((line) => JSON.parse(line).msg)).toEqual([
      `before ${LEAK_REDIS_PASSWORD}`,
      `after [redacted] ${LEAK_ENV.LEAK_CLIENT_KEY}`,
      'reloaded [redacted]',
    ]);
  });
});
