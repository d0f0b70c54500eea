import { GatewayError } from '../errors.ts';
import { getProtocolAdapter } from '../protocols/index.ts';
import { readRetryAfter } from '../routing/retry-after.ts';
import type { RuntimeVendor, VendorResponse } from './types.ts';

const MAX_ERROR_BYTES = 64 * 1024;

/** Reads at most 64 KiB of an error body and parses it as JSON when it is JSON. */
export async function readErrorBody(response: VendorResponse): Promise<{ text: string; json: unknown }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size > MAX_ERROR_BYTES) {
      response.body.destroy();
      break;
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return { text, json: JSON.parse(text) };
  } catch {
    return { text, json: undefined };
  }
}

/**
 * Turns a vendor's error answer into the GatewayError the caller sees in its own shape: the vendor's
 * status and message, except that a vendor rejecting the gateway's own credentials (401/403) becomes
 * 502 `upstream_auth_failed` (vendors echo key fragments in those messages), policy codes become
 * `content_policy_violation`, and a body that is not JSON becomes 502.
 */
export function toVendorError(
  vendor: RuntimeVendor,
  status: number,
  json: unknown,
  headers: VendorResponse['headers'] = {},
): GatewayError {
  const name = vendor.config.name;
  if (status === 401 || status === 403) {
    return new GatewayError(502, 'upstream_auth_failed', `Vendor "${name}" rejected the gateway's credentials.`);
  }
  if (json === undefined) {
    return new GatewayError(502, 'upstream_bad_response', `Vendor "${name}" answered ${status} with a body that is not JSON.`);
  }
  const info = getProtocolAdapter(vendor.config.protocol).readError(status, json);
  if (vendor.config.policyErrorCodes.includes(info.code)) {
    return new GatewayError(400, 'content_policy_violation', info.message || 'The request was rejected by the content policy.');
  }
  const waitMs = readRetryAfter(headers);
  const retryAfter = waitMs !== undefined ? waitMs / 1000 : status === 429 || status === 503 ? 1 : undefined;
  return new GatewayError(status, info.code, info.message || `Vendor "${name}" answered ${status}.`, { retryAfter });
}
