import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { geminiAdapter } from '../../src/translate/gemini/index.ts';
import { anthropicAdapter } from '../../src/translate/anthropic/index.ts';
import { createVendorGatewayError, readVendorError } from '../../src/translate/vendor-error.ts';
import type { VendorResponse } from '../../src/runtime/types.ts';
import { readFixture } from './fixtures.ts';

function createResponse(status: number, text: string, headers: Record<string, string> = {}): VendorResponse {
  const body = Object.assign(Readable.from([Buffer.from(text)]), {
    json: async () => JSON.parse(text),
    text: async () => text,
  });
  return { status, headers, body };
}

describe('vendor errors on translated calls', () => {
  test('a credential failure becomes 502 upstream_auth_failed without the vendor message', () => {
    const error = createVendorGatewayError({ status: 401, type: 'authentication_error', message: 'invalid x-api-key sk-ant-1234', authFailure: true }, []);
    expect(error).toMatchObject({ status: 502, code: 'upstream_auth_failed' });
    expect(error.message).not.toContain('sk-ant');
  });

  test('an invalid generate-content API key (HTTP 400) is a credential failure too', async () => {
    const error = await readVendorError(geminiAdapter, createResponse(400, JSON.stringify(readFixture('gemini/error-400.json'))), []);
    expect(error).toMatchObject({ status: 502, code: 'upstream_auth_failed' });
  });

  test('keeps the vendor status, code and message, and its Retry-After', async () => {
    const error = await readVendorError(anthropicAdapter, createResponse(529, JSON.stringify(readFixture('anthropic/error-overloaded-529.json')), { 'retry-after': '7' }), []);
    expect(error).toMatchObject({ status: 529, code: 'overloaded_error', message: 'Overloaded', retryAfter: 7 });
  });

  test('a vendor code listed as a policy error becomes 400 content_policy_violation', () => {
    const error = createVendorGatewayError({ status: 400, type: 'data_inspection_failed', message: 'Input data may contain inappropriate content.' }, ['data_inspection_failed']);
    expect(error).toMatchObject({ status: 400, code: 'content_policy_violation' });
  });

  test('a non-JSON error body keeps its text; a status outside 4xx/5xx becomes 502', async () => {
    const error = await readVendorError(anthropicAdapter, createResponse(503, 'upstream connect error'), []);
    expect(error).toMatchObject({ status: 503, message: 'upstream connect error' });
    expect(createVendorGatewayError({ status: 302, type: 'x', message: 'moved' }, []).status).toBe(502);
  });
});
