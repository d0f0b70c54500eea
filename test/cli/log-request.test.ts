import { describe, expect, it } from 'vitest';
import { createRequestLog } from '../../src/cli/log-request.ts';
import { GatewayError } from '../../src/errors.ts';
import { createLogger, setLogSecrets } from '../../src/logger.ts';
import type { UsageEvent } from '../../src/runtime/types.ts';

function createCapturedLogger(level: string) {
  const lines: string[] = [];
  const logger = createLogger(level, { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

const EVENT: UsageEvent = {
  requestId: 'req-1', key: 'team-a', model: 'gpt-4o', vendor: 'openai', op: 'chat', style: 'openai',
  status: 200, durationMs: 3, vendorCalls: 1, usage: { inputTokens: 5, outputTokens: 7, totalTokens: 12 },
} as UsageEvent;

describe('the request log line', () => {
  it('logs a served request at info with its usage', () => {
    const { logger, lines } = createCapturedLogger('info');
    for (const receive of createRequestLog(logger)) receive(EVENT);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 30, msg: 'request', requestId: 'req-1', status: 200, usage: { totalTokens: 12 } });
  });

  it('logs a request the gateway failed at error, with the cause and its stack, and no secret of the cause', () => {
    const { logger, lines } = createCapturedLogger('info');
    setLogSecrets(logger, ['sk-vendor-secret-123456']);
    const cause = new TypeError('cannot read the vendor answer from https://vendor.test/v1?key=sk-vendor-secret-123456');
    const event = { ...EVENT, status: 500, error: 'internal_error', cause } as UsageEvent;
    for (const receive of createRequestLog(logger)) receive(event);
    const line = JSON.parse(lines[0]);
    expect(line).toMatchObject({ level: 50, msg: 'request', status: 500, error: 'internal_error', err: { type: 'TypeError' } });
    expect(line.err.message).toContain('cannot read the vendor answer');
    expect(line.err.stack).toContain('log-request.test.ts');
    expect(line.cause).toBeUndefined();
    expect(lines[0]).not.toContain('sk-vendor-secret-123456');
  });

  it('builds no receiver below info, so no usage event is made', () => {
    const { logger } = createCapturedLogger('warn');
    expect(createRequestLog(logger)).toEqual([]);
  });
});
