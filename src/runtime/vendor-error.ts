import { GatewayError } from '../errors.ts';
import { getProtocolAdapter } from '../protocols/index.ts';
import { readRetryAfter } from '../routing/retry-after.ts';
import type { VendorError } from '../translate/canonical.ts';
import { openBody } from './body-reading.ts';
import { collectBody } from './collect-chunks.ts';
import type { RuntimeVendor, VendorResponse } from './types.ts';

const MAX_ERROR_BYTES = 64 * 1024;

/**
 * Reads at most 64 KiB of an error body and parses it as JSON when it is JSON. A body the vendor cuts
 * (reset) or leaves silent too long counts as no JSON: the answer is unreadable, whatever arrived of it.
 */
export function readErrorBody(response: VendorResponse): Promise<{ text: string; json: unknown }> {
  const reading = openBody(response);
  return new Promise((resolve) => {
    collectBody(reading, MAX_ERROR_BYTES, (error, { chunks, ended }) => {
      // Past the limit: the bytes before the chunk that passed it, the rest never read.
      if (error === undefined && !ended) {
        reading.destroy();
        chunks.pop();
      }
      const text = Buffer.concat(chunks).toString('utf8');
      if (error !== undefined) return resolve({ text, json: undefined });
      try {
        resolve({ text, json: JSON.parse(text) });
      } catch {
        resolve({ text, json: undefined });
      }
    });
  });
}

/**
 * The one mapping from a vendor's error to the GatewayError the caller sees in its own shape, for
 * passthrough and translation alike: a vendor rejecting the gateway's own credentials becomes 502
 * `upstream_auth_failed` without the vendor's message (vendors echo key fragments there); a code listed in
 * the vendor's `policy_error_codes` becomes 400 `content_policy_violation`; otherwise the vendor's status
 * (502 when it is no error status), code, message and `param` (when it named one), with its Retry-After. Every secret the gateway holds
 * is redacted from the vendor's code and message here, whatever the status.
 */
export function createVendorGatewayError(vendor: RuntimeVendor, error: VendorError, retryAfterSeconds?: number): GatewayError {
  if (error.authFailure) {
    return new GatewayError(502, 'upstream_auth_failed', `Vendor "${vendor.config.name}" rejected the gateway's credentials.`);
  }
  const redact = vendor.redactor?.redactText ?? keep;
  const message = redact(error.message);
  if (vendor.config.policyErrorCodes.includes(error.type)) {
    return new GatewayError(400, 'content_policy_violation', message || 'The request was rejected by the content policy.');
  }
  const status = error.status >= 400 && error.status <= 599 ? error.status : 502;
  const retryAfter = retryAfterSeconds ?? (status === 429 || status === 503 ? 1 : undefined);
  const param = error.param === undefined ? {} : { param: redact(error.param) };
  return new GatewayError(status, redact(error.type), message, retryAfter === undefined ? param : { ...param, retryAfter });
}

/**
 * `error` with the gateway's secrets redacted from its message, for GatewayErrors built elsewhere from a
 * vendor's words (e.g. a failed image task's message); anything else is returned as it is.
 */
export function redactVendorGatewayError(vendor: RuntimeVendor, error: unknown): unknown {
  if (!(error instanceof GatewayError) || !vendor.redactor) return error;
  const message = vendor.redactor.redactText(error.message);
  const code = vendor.redactor.redactText(error.code);
  if (message === error.message && code === error.code) return error;
  const { param, type, retryAfter, headers } = error;
  return new GatewayError(error.status, code, message, { param, type, retryAfter, headers, cause: error.cause });
}

const keep = (text: string): string => text;

/** Maps a vendor's non-2xx answer (body already read) by {@link createVendorGatewayError}; a body that is not JSON is 502. */
export function toVendorError(
  vendor: RuntimeVendor,
  status: number,
  json: unknown,
  headers: VendorResponse['headers'] = {},
): GatewayError {
  const error = getProtocolAdapter(vendor.config.protocol).readError(status, json, headers);
  if (json === undefined && !error.authFailure) {
    return new GatewayError(502, 'upstream_invalid_response', `Vendor "${vendor.config.name}" answered ${status} with a body that is not JSON.`);
  }
  const waitMs = readRetryAfter(headers);
  return createVendorGatewayError(vendor, error, waitMs === undefined ? undefined : waitMs / 1000);
}

/** Reads a vendor's non-2xx answer and maps it by {@link toVendorError}. */
export async function readVendorError(vendor: RuntimeVendor, response: VendorResponse): Promise<GatewayError> {
  const { json } = await readErrorBody(response);
  return toVendorError(vendor, response.status, json, response.headers);
}
