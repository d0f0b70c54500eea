import { GatewayError } from '../../errors.ts';
import type { VendorResponse } from '../types.ts';
import { VendorAnswer } from '../vendor-answer.ts';

/**
 * A vendor's whole answer parsed as JSON, or a 502 `upstream_invalid_response` when it is not JSON or
 * cannot be read. An answer that is the vendor call itself is read from its chunks, without the Readable
 * that `body` would make for it.
 */
export async function readAnswerJson(response: VendorResponse): Promise<unknown> {
  try {
    return response instanceof VendorAnswer ? JSON.parse(await response.readText()) : await response.body.json();
  } catch (error) {
    throw new GatewayError(502, 'upstream_invalid_response', 'The vendor answered with a body that is not JSON.', { cause: error });
  }
}
