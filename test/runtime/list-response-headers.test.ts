import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatWholeNumber } from '../../src/lib/format-json-number.ts';
import { formatRetryAfter } from '../../src/routing/retry-after.ts';
import { listResponseHeaders } from '../../src/runtime/list-response-headers.ts';
import type { RequestContext, VendorResponse } from '../../src/runtime/types.ts';

/** The reference: the passed names in a loop, each read through a computed key (the list as it was made before). */
const RESPONSE_HEADERS = ['content-type', 'content-length', 'content-disposition', 'cache-control'];

function listReferenceHeaders(ctx: RequestContext, response: VendorResponse, contentLength?: number): (string | string[])[] {
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

const value = fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 2 }));
/** Retry-After values: delay-seconds, fractions, garbage, arrays, and dates far enough away that the clock does not matter. */
const retryAfter = fc.oneof(
  fc.nat().map(String),
  fc.constantFrom('1.5', ' 7 ', '-3', 'soon', '', 'Wed, 21 Oct 2015 07:28:00 GMT', 'Fri, 01 Jan 2100 00:00:00 GMT', 'Sun, 06 Nov 1994 08:49:37 GMT'),
  fc.array(fc.nat().map(String), { maxLength: 2 }),
);
const vendorHeaders = fc.record(
  {
    'content-type': value,
    'content-length': value,
    'content-disposition': value,
    'cache-control': value,
    'retry-after': retryAfter,
    'retry-after-ms': fc.oneof(fc.nat().map(String), fc.constant('x')),
    'x-ratelimit-remaining-requests': value,
    'set-cookie': value,
  },
  { requiredKeys: [] },
);
const ownHeaders = fc.dictionary(fc.oneof(fc.constantFrom('x-request-id', 'x-ratelimit-limit-requests', 'content-type'), fc.string()), fc.string(), { maxKeys: 8 });

describe('listResponseHeaders', () => {
  it('lists what the computed-key reference lists, in the same order, for any own and vendor headers, with or without a content length', () => {
    fc.assert(
      fc.property(ownHeaders, vendorHeaders, fc.option(fc.nat(), { nil: undefined }), (own, headers, contentLength) => {
        const ctx = { headers: own } as unknown as RequestContext;
        const response = { status: 200, headers } as unknown as VendorResponse;
        expect(listResponseHeaders(ctx, response, contentLength)).toEqual(listReferenceHeaders(ctx, response, contentLength));
      }),
      { numRuns: 2000 },
    );
  });

  it('passes the vendor headers in their order after the own ones, the content length replaced, retry-after normalised', () => {
    const ctx = { headers: { 'x-request-id': 'id-1' } } as unknown as RequestContext;
    const response = { status: 429, headers: { 'cache-control': 'no-store', 'content-length': '99', 'retry-after': '1.2', 'content-type': 'application/json' } } as unknown as VendorResponse;
    expect(listResponseHeaders(ctx, response, 12)).toEqual(['x-request-id', 'id-1', 'content-type', 'application/json', 'cache-control', 'no-store', 'content-length', '12', 'retry-after', '2']);
  });
});
