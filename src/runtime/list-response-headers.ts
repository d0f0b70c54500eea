import { formatWholeNumber } from '../lib/format-json-number.ts';
import { formatRetryAfter } from '../routing/retry-after.ts';
import type { RequestContext, VendorResponse } from './types.ts';

/**
 * Response headers passed from vendor to client as they are; `retry-after` is passed normalised
 * (formatRetryAfter); everything else (vendor rate limits, cookies...) stays.
 */
const RESPONSE_HEADERS = ['content-type', 'content-length', 'content-disposition', 'cache-control'];

/**
 * The client's response headers as a flat name/value list (what `writeHead` takes without copying): the
 * request's own headers, then the vendor's passed headers; `contentLength` replaces the vendor's.
 */
export function listResponseHeaders(ctx: RequestContext, response: VendorResponse, contentLength?: number): (string | string[])[] {
  const list: (string | string[])[] = [];
  for (const name in ctx.headers) list.push(name, ctx.headers[name]);
  for (const name of RESPONSE_HEADERS) {
    const value = response.headers[name];
    if (value !== undefined && (contentLength === undefined || name !== 'content-length')) list.push(name, value);
  }
  if (contentLength !== undefined) list.push('content-length', formatWholeNumber(contentLength));
  const retryAfter = formatRetryAfter(response.headers);
  if (retryAfter !== undefined) list.push('retry-after', retryAfter);
  return list;
}
