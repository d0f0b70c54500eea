import { describe, expect, it } from 'vitest';
import { GatewayError, toGatewayError } from '../../src/errors.ts';

describe('GatewayError', () => {
  it('keeps status, code, message and every option', () => {
    const cause = new Error('socket hang up');
    const error = new GatewayError(502, 'upstream_unreachable', 'gone', { param: 'p', type: 't', retryAfter: 3, headers: { a: 'b' }, cause });
    expect(error).toMatchObject({ status: 502, code: 'upstream_unreachable', message: 'gone', param: 'p', type: 't', retryAfter: 3, headers: { a: 'b' } });
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(Error);
  });

  it('has no cause property when none was given', () => {
    expect('cause' in new GatewayError(400, 'c', 'm')).toBe(false);
  });
});

describe('toGatewayError', () => {
  it('returns a GatewayError as it is', () => {
    const error = new GatewayError(404, 'model_not_found', 'no');
    expect(toGatewayError(error)).toBe(error);
  });

  it('turns anything else into a 500 internal_error that hides the original message', () => {
    const original = new TypeError('secret internals at /srv/app.js:12');
    const error = toGatewayError(original);
    expect(error).toMatchObject({ status: 500, code: 'internal_error', message: 'The gateway failed to handle the request.' });
    expect(error.cause).toBe(original);
    expect(toGatewayError('thrown string')).toMatchObject({ status: 500, code: 'internal_error' });
  });
});
