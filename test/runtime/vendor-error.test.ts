import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import type { Protocol } from '../../src/config/types.ts';
import { GatewayError } from '../../src/errors.ts';
import { createRedactor } from '../../src/runtime/redact.ts';
import { createVendorGatewayError, readVendorError, redactVendorGatewayError } from '../../src/runtime/vendor-error.ts';
import type { RuntimeVendor, VendorResponse } from '../../src/runtime/types.ts';
import { readFixture } from '../translate/fixtures.ts';

function createResponse(status: number, text: string, headers: Record<string, string> = {}): VendorResponse {
  const body = Object.assign(Readable.from([Buffer.from(text)]), {
    json: async () => JSON.parse(text),
    text: async () => text,
  });
  return { status, headers, body };
}

function createVendor(protocol: Protocol, policyErrorCodes: string[] = []): RuntimeVendor {
  return { config: { name: 'v', protocol, policyErrorCodes }, redactor: createRedactor([KEY]) } as unknown as RuntimeVendor;
}

const KEY = 'sk-vendor-secret/1';

describe('vendor errors, the one mapping for passthrough and translated calls', () => {
  test('a credential failure becomes 502 upstream_auth_failed without the vendor message', () => {
    const error = createVendorGatewayError(createVendor('anthropic'), { status: 401, type: 'authentication_error', message: 'invalid x-api-key sk-ant-1234', authFailure: true });
    expect(error).toMatchObject({ status: 502, code: 'upstream_auth_failed' });
    expect(error.message).not.toContain('sk-ant');
  });

  test('an invalid generate-content API key (HTTP 400) is a credential failure too', async () => {
    const error = await readVendorError(createVendor('gemini'), createResponse(400, JSON.stringify(readFixture('gemini/error-400.json'))));
    expect(error).toMatchObject({ status: 502, code: 'upstream_auth_failed' });
    expect(error.message).not.toContain('API key not valid');
  });

  test('keeps the vendor status, code and message, and its Retry-After', async () => {
    const error = await readVendorError(createVendor('anthropic'), createResponse(529, JSON.stringify(readFixture('anthropic/error-overloaded-529.json')), { 'retry-after': '7' }));
    expect(error).toMatchObject({ status: 529, code: 'overloaded_error', message: 'Overloaded', retryAfter: 7 });
  });

  test('a vendor code listed as a policy error becomes 400 content_policy_violation', async () => {
    const vendor = createVendor('dashscope', ['DataInspectionFailed']);
    const error = await readVendorError(vendor, createResponse(400, JSON.stringify(readFixture('dashscope/error-400-data-inspection.json'))));
    expect(error).toMatchObject({ status: 400, code: 'content_policy_violation' });
  });

  test('a body that is not JSON is 502; a status outside 4xx/5xx becomes 502', async () => {
    const error = await readVendorError(createVendor('anthropic'), createResponse(503, '<html>upstream connect error</html>'));
    expect(error).toMatchObject({ status: 502, code: 'upstream_invalid_response' });
    expect(createVendorGatewayError(createVendor('openai'), { status: 302, type: 'x', message: 'moved' }).status).toBe(502);
  });

  test.each([
    ['reset', 'ECONNRESET'],
    ['body silence', 'UND_ERR_BODY_TIMEOUT'],
  ])('an error body cut by a %s is an unreadable answer (502), not a throw the gateway did not handle', async (_kind, code) => {
    const body = new Readable({ read() {} });
    body.push(Buffer.from('{"message":"Bearer sk-vend'));
    setImmediate(() => body.destroy(Object.assign(new Error('the vendor went away'), { code })));
    const response = { status: 500, headers: {}, body } as unknown as VendorResponse;
    await expect(readVendorError(createVendor('bedrock'), response)).resolves.toMatchObject({ status: 502, code: 'upstream_invalid_response' });
    expect(body.destroyed).toBe(true);
  });

  test.each([400, 429, 500, 503])('redacts the gateway secrets from the vendor code and message of an HTTP %i', (status) => {
    const leak = `bad request for key Bearer ${KEY} (?key=${encodeURIComponent(KEY)})`;
    const error = createVendorGatewayError(createVendor('openai'), { status, type: `code_${KEY}`, message: leak });
    expect(error).toMatchObject({ status, code: 'code_[redacted]', message: 'bad request for key Bearer [redacted] (?key=[redacted])' });
  });

  test('redacts the message of a policy error', () => {
    const error = createVendorGatewayError(createVendor('dashscope', ['Blocked']), { status: 400, type: 'Blocked', message: `blocked for ${KEY}` });
    expect(error).toMatchObject({ status: 400, code: 'content_policy_violation', message: 'blocked for [redacted]' });
  });

  test('redacts an error built elsewhere from a vendor\'s words, keeping its status, options and cause', () => {
    const cause = new Error('x');
    const error = new GatewayError(502, 'upstream_task_failed', `task failed: ${KEY}`, { retryAfter: 3, cause });
    const redacted = redactVendorGatewayError(createVendor('dashscope'), error) as GatewayError;
    expect(redacted).toMatchObject({ status: 502, code: 'upstream_task_failed', message: 'task failed: [redacted]', retryAfter: 3, cause });
    const clean = new GatewayError(400, 'x', 'nothing secret');
    expect(redactVendorGatewayError(createVendor('dashscope'), clean)).toBe(clean);
  });
});
