import { GatewayError } from '../errors.ts';
import type { RuntimeVendor, VendorResponse } from './types.ts';
import { VendorAnswer } from './vendor-answer.ts';

/**
 * A vendor's whole 2xx answer parsed as JSON, or a 502 `upstream_invalid_response` when it is not JSON or
 * cannot be read (the one place that condition is raised for translated answers, token counts and images).
 * An answer that is the vendor call itself is read from its chunks, without the Readable that `body` would
 * make for it.
 */
export async function readAnswerJson(vendor: RuntimeVendor, response: VendorResponse): Promise<unknown> {
  try {
    return response instanceof VendorAnswer ? JSON.parse(await response.readText()) : await response.body.json();
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw new GatewayError(502, 'upstream_invalid_response', `Vendor "${vendor.config.name}" answered with a body that is not JSON.`, { cause: error });
  }
}
