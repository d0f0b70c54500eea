/** Vendor errors -> GatewayError (the one place a translated call's vendor failure gets its status). */
import { GatewayError } from '../errors.ts';
import type { VendorResponse } from '../runtime/types.ts';
import type { VendorError } from './canonical.ts';
import type { VendorAdapter } from './adapter.ts';

/**
 * Maps a vendor error to the GatewayError the client sees: a rejected gateway credential becomes 502
 * `upstream_auth_failed` without the vendor's message (vendors echo key fragments); a code listed in the
 * vendor's `policy_error_codes` becomes 400 `content_policy_violation`; otherwise the vendor's status
 * (502 when it is not an error status), its error type or code as `code`, and its message.
 */
export function createVendorGatewayError(error: VendorError, policyErrorCodes: readonly string[], retryAfter?: number): GatewayError {
  if (error.authFailure) {
    return new GatewayError(502, 'upstream_auth_failed', "The vendor rejected the gateway's credentials for this model.");
  }
  if (policyErrorCodes.includes(error.type)) return new GatewayError(400, 'content_policy_violation', error.message);
  const status = error.status >= 400 && error.status <= 599 ? error.status : 502;
  return new GatewayError(status, error.type, error.message, retryAfter === undefined ? {} : { retryAfter });
}

/** Reads a non-2xx vendor answer (consuming its body) and maps it by {@link createVendorGatewayError}. */
export async function readVendorError(
  adapter: VendorAdapter,
  response: VendorResponse,
  policyErrorCodes: readonly string[],
): Promise<GatewayError> {
  const text = await response.body.text().catch(() => '');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the adapter reads the text
  }
  const header = response.headers['retry-after'];
  const seconds = Number(Array.isArray(header) ? header[0] : header);
  const retryAfter = Number.isFinite(seconds) && seconds >= 0 && header !== undefined ? seconds : undefined;
  return createVendorGatewayError(adapter.decodeError(response.status, body), policyErrorCodes, retryAfter);
}
