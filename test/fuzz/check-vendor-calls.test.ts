import { describe, expect, it } from 'vitest';
import { checkVendorCalls } from './check-answer.ts';
import type { VendorCall } from './vendor-call.ts';

/** The fuzz check itself: whose decision a 4xx after a vendor call is. */
const call = (status: number, streamError?: boolean): VendorCall => ({ vendor: 'bedrock', hostile: true, method: 'POST', url: '/model/m/converse-stream', headers: {}, status, complete: true, settled: true, ...(streamError ? { streamError } : {}) });

describe('the vendor-call check of a fuzz case', () => {
  it('takes a 4xx after a vendor 4xx, or after an exception inside a vendor 200 stream, for the vendor decision', () => {
    expect(checkVendorCalls(400, [call(400)], undefined, {})).toEqual([]);
    expect(checkVendorCalls(400, [call(200, true)], undefined, {})).toEqual([]);
  });

  it('still flags a 4xx the gateway decided after a vendor 200 without an in-stream exception', () => {
    expect(checkVendorCalls(400, [call(200)], undefined, {})).toEqual([expect.stringMatching(/^gateway-decided 400 after vendor call\(s\) that did not answer 4xx/)]);
  });
});
