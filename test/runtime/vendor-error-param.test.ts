import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/runtime/redact.ts';
import type { RuntimeVendor } from '../../src/runtime/types.ts';
import { readVendorError } from '../../src/runtime/vendor-error.ts';

/** Whatever an OpenAI-protocol vendor puts in an error's `param`, the GatewayError holds a string it sent (redacted) or none. */
const KEY = 'sk-vendor-secret-for-param';
const vendor = { config: { name: 'v', protocol: 'openai', policyErrorCodes: [] }, redactor: createRedactor([KEY]) } as unknown as RuntimeVendor;
const respond = (status: number, text: string) => ({ status, headers: {}, body: Object.assign(Readable.from([Buffer.from(text)]), { json: async () => JSON.parse(text), text: async () => text }) });

describe("a vendor error's param, fuzzed", () => {
  it('is the vendor’s string (secrets redacted), and absent for anything else it sends', async () => {
    const param = fc.oneof(fc.string(), fc.constant(`field ${KEY}`), fc.jsonValue());
    await fc.assert(fc.asyncProperty(fc.integer({ min: 400, max: 599 }), param, async (status, value) => {
      const body = JSON.stringify({ error: { message: 'm', type: 'invalid_request_error', param: value, code: 'c' } });
      const error = await readVendorError(vendor, respond(status, body));
      if (status === 401 || status === 403) return void expect(error.param).toBeUndefined();
      expect(error.param).toBe(typeof value === 'string' ? value.replaceAll(KEY, '[redacted]') : undefined);
    }), { numRuns: 300, seed: 20261124 });
  });
});
