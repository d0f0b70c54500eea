import { GatewayError } from '../errors.ts';
import type { AbortSource } from './abort-source.ts';
import type { RequestContext, RuntimeVendor, VendorRequest, VendorResponse } from './types.ts';

/** Maps an undici failure (no response) to the gateway's error: 504 on timeout, 502 otherwise. */
export function toVendorFailure(error: any, ctx: RequestContext, vendor: RuntimeVendor): GatewayError {
  if (ctx.abortSource.aborted) return new GatewayError(499, 'client_closed_request', 'The client closed the request.');
  const code = error?.code ?? error?.cause?.code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new GatewayError(504, 'upstream_timeout', `Vendor "${vendor.config.name}" did not answer in time.`, { cause: error });
  }
  return new GatewayError(502, 'upstream_unreachable', `Vendor "${vendor.config.name}" could not be reached (${code ?? 'connection failed'}).`, {
    cause: error,
  });
}

/** The vendor's configured headers plus its auth header, and the path with its auth query parameter. */
export function addVendorAuth(vendor: RuntimeVendor, path: string, headers: Record<string, string>): string {
  const { auth } = vendor.config;
  Object.assign(headers, vendor.config.headers);
  if (auth.kind === 'bearer') headers.authorization = `Bearer ${vendor.secret ?? ''}`;
  else if (auth.kind === 'header') headers[auth.header] = vendor.secret ?? '';
  else if (auth.kind === 'query') {
    return `${path}${path.includes('?') ? '&' : '?'}${encodeURIComponent(auth.param)}=${encodeURIComponent(vendor.secret ?? '')}`;
  }
  return path;
}

/**
 * Calls a vendor: joins the base path, adds the vendor's auth and configured headers, and shares the
 * request's AbortSignal. Throws a GatewayError when no response arrives.
 */
export async function callVendor(
  ctx: RequestContext,
  vendor: RuntimeVendor,
  request: VendorRequest,
  signal: AbortSignal | AbortSource = ctx.abortSource,
): Promise<VendorResponse> {
  const headers: Record<string, string> = { ...request.headers };
  const path = addVendorAuth(vendor, vendor.basePath + request.path, headers);
  ctx.vendorCalls++;
  try {
    const response = await vendor.dispatcher.request({
      origin: vendor.origin,
      path,
      method: request.method,
      headers,
      body: request.body,
      signal: signal as AbortSignal,
      ...(request.headersTimeoutMs ? { headersTimeout: request.headersTimeoutMs } : {}),
    });
    return { status: response.statusCode, headers: response.headers, body: response.body as VendorResponse['body'] };
  } catch (error) {
    throw toVendorFailure(error, ctx, vendor);
  }
}
