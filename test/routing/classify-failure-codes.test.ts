import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.ts';
import { classifyFailure } from '../../src/routing/classify-failure.ts';

const withCode = (code: string) => Object.assign(new Error(code), { code });

describe('classifyFailure by error code', () => {
  it.each([
    'ECONNREFUSED',
    'ECONNRESET',
    'EPIPE',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'ETIMEDOUT',
    'UND_ERR_CONNECT_TIMEOUT',
    'UND_ERR_SOCKET',
    'UND_ERR_CLOSED',
  ])('%s (thrown or as a cause) is a connect failure', (code) => {
    expect(classifyFailure(withCode(code))).toEqual({ kind: 'connect' });
    expect(classifyFailure(new TypeError('fetch failed', { cause: withCode(code) }))).toEqual({ kind: 'connect' });
  });

  it.each(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])('%s is a timeout', (code) => {
    expect(classifyFailure(withCode(code))).toEqual({ kind: 'timeout' });
  });

  it('an AbortSignal.timeout() rejection (name TimeoutError, no code) is a timeout', () => {
    expect(classifyFailure(new DOMException('The operation timed out.', 'TimeoutError'))).toEqual({ kind: 'timeout' });
  });

  it('an unknown code or a non-string code is no network failure', () => {
    expect(classifyFailure(withCode('ESOMETHINGELSE'))).toEqual({ kind: 'other' });
    expect(classifyFailure(Object.assign(new Error('x'), { code: 42 }))).toEqual({ kind: 'other' });
    expect(classifyFailure(Object.assign(new Error('x'), { name: 'AbortError' }))).toEqual({ kind: 'other' });
  });

  it('follows the cause chain four links deep and no deeper', () => {
    const chain = (links: number) => {
      let error: unknown = withCode('ECONNRESET');
      for (let i = 0; i < links; i++) error = new Error(`wrap ${i}`, { cause: error });
      return error;
    };
    expect(classifyFailure(chain(4))).toEqual({ kind: 'connect' });
    expect(classifyFailure(chain(5))).toEqual({ kind: 'other' });
  });

  it('a cause chain through a non-object ends the search', () => {
    expect(classifyFailure(new Error('x', { cause: 'ECONNRESET' }))).toEqual({ kind: 'other' });
    expect(classifyFailure(null)).toEqual({ kind: 'other' });
    expect(classifyFailure('ECONNRESET')).toEqual({ kind: 'other' });
  });
});

describe('classifyFailure of the runtime own errors', () => {
  it('502 upstream_unreachable is connect and 504 upstream_timeout is timeout', () => {
    expect(classifyFailure(new GatewayError(502, 'upstream_unreachable', 'x'))).toEqual({ kind: 'connect' });
    expect(classifyFailure(new GatewayError(504, 'upstream_timeout', 'x'))).toEqual({ kind: 'timeout' });
  });

  it('the same codes with another status, or other codes with those statuses, are status failures', () => {
    expect(classifyFailure(new GatewayError(503, 'upstream_unreachable', 'x'))).toEqual({ kind: 'status', status: 503, retryAfterMs: undefined });
    expect(classifyFailure(new GatewayError(500, 'upstream_timeout', 'x'))).toEqual({ kind: 'status', status: 500, retryAfterMs: undefined });
    expect(classifyFailure(new GatewayError(502, 'upstream_error', 'x'))).toEqual({ kind: 'status', status: 502, retryAfterMs: undefined });
    expect(classifyFailure(new GatewayError(504, 'upstream_error', 'x'))).toEqual({ kind: 'status', status: 504, retryAfterMs: undefined });
  });

  it('a status failure without Retry-After carries no wait, with Retry-After 0 a wait of 0', () => {
    const none = classifyFailure(new GatewayError(503, 'upstream_error', 'x'));
    expect(none.retryAfterMs).toBeUndefined();
    expect(classifyFailure(new GatewayError(429, 'rate_limit_exceeded', 'x', { retryAfter: 0 })).retryAfterMs).toBe(0);
  });
});

describe('classifyFailure of errors that classify themselves', () => {
  it('takes the failure an error carries, with its status', () => {
    const failure = { kind: 'status', status: 418, retryAfterMs: 5 } as const;
    expect(classifyFailure(Object.assign(new Error('x'), { failure }))).toBe(failure);
  });

  it('ignores a failure field that is not a failure', () => {
    expect(classifyFailure(Object.assign(new Error('x'), { failure: null }))).toEqual({ kind: 'other' });
    expect(classifyFailure(Object.assign(new Error('x'), { failure: 'connect' }))).toEqual({ kind: 'other' });
    expect(classifyFailure(Object.assign(new Error('x'), { failure: { kind: 7 } }))).toEqual({ kind: 'other' });
  });
});
