import { GatewayError } from '../errors.ts';
import type { RequestContext, RuntimeVendor } from './types.ts';

/** Maps an undici failure (no response) to the gateway's error: 504 on timeout, 502 otherwise (a GatewayError stays itself). */
export function toVendorFailure(error: any, ctx: RequestContext, vendor: RuntimeVendor): GatewayError {
  if (ctx.abortSource.aborted) return new GatewayError(499, 'client_closed_request', 'The client closed the request.');
  // The gateway's own finding about the answer (a coding that does not decode): already what the client gets.
  if (error instanceof GatewayError) return error;
  const code = error?.code ?? error?.cause?.code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new GatewayError(504, 'upstream_timeout', `Vendor "${vendor.config.name}" did not answer in time.`, { cause: error });
  }
  return new GatewayError(502, 'upstream_unreachable', `Vendor "${vendor.config.name}" could not be reached (${code ?? 'connection failed'}).`, {
    cause: error,
  });
}
