import { formatWholeNumber } from '../lib/format-json-number.ts';
import { formatRetryAfter } from '../routing/retry-after.ts';
import type { RequestContext, VendorResponse } from './types.ts';

type HeaderList = (string | string[])[];

function pushHeader(list: HeaderList, name: string, value: string | string[] | undefined): void {
  if (value !== undefined) list.push(name, value);
}

/**
 * The client's response headers as a flat name/value list (what `writeHead` takes without copying): the
 * request's own headers, then the vendor's passed headers (`content-type`, `content-length`,
 * `content-disposition`, `cache-control`, as they are; `retry-after` normalised by formatRetryAfter; everything
 * else, vendor rate limits, cookies..., stays); `contentLength` replaces the vendor's, and `null` drops it: a body
 * the gateway may change on its way (a stream through its tap) goes chunked, never framed by the vendor's length.
 */
export function listResponseHeaders(ctx: RequestContext, response: VendorResponse, contentLength?: number | null): HeaderList {
  const list: HeaderList = [];
  // Read from the enumerated object itself, V8 takes each value by the for-in's field index (no keyed lookup).
  const own = ctx.headers;
  for (const name in own) list.push(name, own[name]);
  // Each vendor header read by its written-out name: a read through a computed name is a megamorphic keyed load.
  const headers = response.headers;
  pushHeader(list, 'content-type', headers['content-type']);
  if (contentLength === undefined) pushHeader(list, 'content-length', headers['content-length']);
  pushHeader(list, 'content-disposition', headers['content-disposition']);
  pushHeader(list, 'cache-control', headers['cache-control']);
  if (typeof contentLength === 'number') list.push('content-length', formatWholeNumber(contentLength));
  pushHeader(list, 'retry-after', formatRetryAfter(headers));
  return list;
}
