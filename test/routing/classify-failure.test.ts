import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.ts';
import { classifyFailure } from '../../src/routing/classify-failure.ts';

describe('classifyFailure', () => {
  it('reads status, Retry-After and refusal codes from a GatewayError', () => {
    expect(classifyFailure(new GatewayError(429, 'rate_limit_exceeded', 'x', { retryAfter: 2 }))).toEqual({
      kind: 'status',
      status: 429,
      retryAfterMs: 2000,
    });
    expect(classifyFailure(new GatewayError(400, 'content_policy_violation', 'x'))).toEqual({ kind: 'content_policy', status: 400 });
    expect(classifyFailure(new GatewayError(400, 'context_length_exceeded', 'x'))).toEqual({ kind: 'context_length', status: 400 });
  });

  it('finds network and timeout codes along the cause chain', () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(classifyFailure(new GatewayError(502, 'upstream_error', 'x', { cause: reset }))).toEqual({ kind: 'connect' });
    const headers = Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(classifyFailure(new Error('wrapped', { cause: headers }))).toEqual({ kind: 'timeout' });
    expect(classifyFailure(new TypeError('bug'))).toEqual({ kind: 'other' });
    expect(classifyFailure(Object.assign(new Error('x'), { failure: { kind: 'connect' } }))).toEqual({ kind: 'connect' });
  });
});
