import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.ts';
import { renderError, renderErrorBody } from '../../src/protocols/render-error.ts';
import { STATUS_STYLE_ROWS, STYLES, getExpectedBody } from '../errors/error-types.ts';

describe('an error rendered as a response, per status and style', () => {
  it.each(STATUS_STYLE_ROWS)('$status in the $style style is $expected', ({ status, style }) => {
    const error = new GatewayError(status, `code_${status}`, `message ${status}`);
    const rendered = renderError(style, error, 'req_abc');
    expect(rendered.status).toBe(status);
    expect(rendered.headers).toEqual({ 'content-type': 'application/json' });
    expect(JSON.parse(rendered.body)).toEqual(getExpectedBody(style, status, `code_${status}`, `message ${status}`, 'req_abc'));
  });
});

describe('the fields of an error body', () => {
  it('names the field in OpenAI param and keeps the code', () => {
    const error = new GatewayError(400, 'invalid_type', '`n` must be a number.', { param: 'n' });
    expect(renderErrorBody('openai', error, 'r')).toEqual({
      error: { message: '`n` must be a number.', type: 'invalid_request_error', param: 'n', code: 'invalid_type' },
    });
  });

  it('lets an explicit type override the status type in the OpenAI and Anthropic styles only', () => {
    const error = new GatewayError(400, 'content_policy_violation', 'blocked', { type: 'image_generation_user_error' });
    expect(renderErrorBody('openai', error, 'r')).toMatchObject({ error: { type: 'image_generation_user_error', code: 'content_policy_violation' } });
    expect(renderErrorBody('anthropic', error, 'r')).toMatchObject({ error: { type: 'image_generation_user_error' } });
    expect(renderErrorBody('gemini', error, 'r')).toEqual({ error: { code: 400, message: 'blocked', status: 'INVALID_ARGUMENT' } });
  });

  it('uses the generic client or server type for a status no table names', () => {
    for (const [status, openai, anthropic, gemini] of [
      [422, 'invalid_request_error', 'invalid_request_error', 'INVALID_ARGUMENT'],
      [507, 'server_error', 'api_error', 'INTERNAL'],
    ] as const) {
      const error = new GatewayError(status, 'c', 'm');
      expect(renderErrorBody('openai', error, 'r')).toMatchObject({ error: { type: openai } });
      expect(renderErrorBody('anthropic', error, 'r')).toMatchObject({ error: { type: anthropic } });
      expect(renderErrorBody('gemini', error, 'r')).toMatchObject({ error: { status: gemini } });
    }
  });

  it("carries the request id in the Anthropic body as the vendor's request_id", () => {
    const body = renderErrorBody('anthropic', new GatewayError(401, 'invalid_api_key', 'no'), 'req_011CSH');
    expect(body).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'no' }, request_id: 'req_011CSH' });
  });
});

describe('Retry-After and extra headers of an error response', () => {
  it.each([
    [40, '40'],
    [1.2, '2'],
    [0, '0'],
    [-3, '0'],
  ])('retryAfter %s is sent as Retry-After: %s in every style', (retryAfter, header) => {
    for (const style of STYLES) {
      const rendered = renderError(style, new GatewayError(429, 'rate_limit_exceeded', 'slow down', { retryAfter }), 'r');
      expect(rendered.headers['retry-after']).toBe(header);
    }
  });

  it('sends no Retry-After without retryAfter', () => {
    expect(renderError('openai', new GatewayError(503, 'x', 'y'), 'r').headers).not.toHaveProperty('retry-after');
  });

  it("adds the error's own headers to the JSON content type", () => {
    const error = new GatewayError(413, 'request_too_large', 'big', { headers: { connection: 'close' }, retryAfter: 5 });
    expect(renderError('gemini', error, 'r').headers).toEqual({ 'content-type': 'application/json', connection: 'close', 'retry-after': '5' });
  });
});
