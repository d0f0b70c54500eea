import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortSource } from '../../src/runtime/abort-source.ts';
import { readAnswerJson } from '../../src/runtime/read-answer-json.ts';
import type { RequestContext, RuntimeVendor, VendorResponse } from '../../src/runtime/types.ts';
import { callVendor } from '../../src/runtime/vendor-call.ts';

/** One reader of a vendor's whole JSON answer for translated answers, token counts and images: the answer, or one 502. */
let vendor: Server;
let pool: Pool;
let runtimeVendor: RuntimeVendor;

beforeAll(async () => {
  vendor = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(req.url === '/garbage' ? '{"a":' : '\ufeff{"a":"é"}');
  });
  await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(vendor.address() as AddressInfo).port}`;
  pool = new Pool(origin);
  runtimeVendor = { config: { name: 'scripted', auth: { kind: 'none' }, headers: {} }, origin, basePath: '', dispatcher: pool } as unknown as RuntimeVendor;
});
afterAll(async () => {
  await pool.close();
  await new Promise((resolve) => vendor.close(resolve));
});

const call = (path: string) => callVendor({ vendorMs: 0, vendorCalls: 0, abortSource: new AbortSource() } as unknown as RequestContext, runtimeVendor, { method: 'GET', path });
/** An answer whose body was rewrapped as a stream (as a Responses id watch does), with undici's json() and text(). */
const rewrapped = (text: string): VendorResponse => ({
  status: 200,
  headers: {},
  body: Object.assign(Readable.from([Buffer.from(text)]), { json: async () => JSON.parse(text), text: async () => text }),
});

describe("reading a vendor's whole JSON answer", () => {
  it('parses the answer of a vendor call (its byte order mark dropped) and of a rewrapped stream alike', async () => {
    expect(await readAnswerJson(runtimeVendor, await call('/json'))).toEqual({ a: 'é' });
    expect(await readAnswerJson(runtimeVendor, rewrapped('{"a":"é"}'))).toEqual({ a: 'é' });
  });

  it('answers one 502 upstream_invalid_response naming the vendor for a body that is not JSON, whichever way it is read', async () => {
    const expected = { status: 502, code: 'upstream_invalid_response', message: 'Vendor "scripted" answered with a body that is not JSON.' };
    await expect(readAnswerJson(runtimeVendor, await call('/garbage'))).rejects.toMatchObject(expected);
    await expect(readAnswerJson(runtimeVendor, rewrapped('{"a":'))).rejects.toMatchObject(expected);
  });
});
