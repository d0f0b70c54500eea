import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortSource } from '../../src/runtime/abort-source.ts';
import { openBody } from '../../src/runtime/body-reading.ts';
import type { RequestContext, RuntimeVendor } from '../../src/runtime/types.ts';
import { callVendor } from '../../src/runtime/vendor-call.ts';
import { waitFor } from '../helpers/wait-for.ts';

/**
 * The vendor answer of the gateway's own undici handler, read the ways callers read it: `json()` and `text()`
 * as undici reads them, a Readable whose early destroy closes the vendor's connection, a sink the client's
 * abort reaches mid-body.
 */
let vendor: Server;
let pool: Pool;
let runtimeVendor: RuntimeVendor;
const closed: string[] = [];
const requested: string[] = [];

function answer(req: IncomingMessage, res: ServerResponse): void {
  requested.push(req.url!);
  req.resume();
  res.on('close', () => {
    if (!res.writableFinished) closed.push(req.url!);
  });
  if (req.url === '/bom') return void res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"é"}')]));
  if (req.url === '/garbage') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":');
  // One piece, then nothing until the gateway leaves.
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write('data: {"first":true}\n\n');
}

function createContext(): RequestContext {
  return { vendorMs: 0, vendorCalls: 0, abortSource: new AbortSource() } as unknown as RequestContext;
}

beforeAll(async () => {
  vendor = createServer(answer);
  await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(vendor.address() as AddressInfo).port}`;
  pool = new Pool(origin, { headersTimeout: 5_000, bodyTimeout: 5_000 });
  runtimeVendor = { config: { name: 'scripted', auth: { kind: 'none' }, headers: {} }, origin, basePath: '', dispatcher: pool } as unknown as RuntimeVendor;
});
afterAll(async () => {
  await pool.close();
  vendor.closeAllConnections();
  await new Promise((resolve) => vendor.close(resolve));
});

describe("a vendor answer's body", () => {
  it('reads as text without its byte order mark, and as JSON', async () => {
    const ctx = createContext();
    const text = await (await callVendor(ctx, runtimeVendor, { method: 'GET', path: '/bom' })).body.text();
    expect(text).toBe('{"a":"é"}');
    expect(await (await callVendor(ctx, runtimeVendor, { method: 'GET', path: '/bom' })).body.json()).toEqual({ a: 'é' });
    expect(ctx.vendorCalls).toBe(2);
    expect(ctx.vendorMs).toBeGreaterThan(0);
  });

  it('rejects json() of a body that is not JSON', async () => {
    const response = await callVendor(createContext(), runtimeVendor, { method: 'GET', path: '/garbage' });
    await expect(response.body.json()).rejects.toBeInstanceOf(SyntaxError);
  });

  it('closes the vendor connection when its Readable is destroyed before the end', async () => {
    const response = await callVendor(createContext(), runtimeVendor, { method: 'GET', path: '/destroyed' });
    const first = await new Promise<Buffer>((resolve) => response.body.once('data', resolve));
    expect(first.toString()).toBe('data: {"first":true}\n\n');
    response.body.on('error', () => undefined);
    response.body.destroy();
    await waitFor(() => closed.includes('/destroyed'));
  });

  it("is cut by the client's abort mid-body: the reader gets the error and the vendor sees its connection close", async () => {
    const ctx = createContext();
    const response = await callVendor(ctx, runtimeVendor, { method: 'GET', path: '/aborted' });
    const chunks: string[] = [];
    const failure = new Promise<unknown>((resolve) => {
      openBody(response).read({ onData: (chunk) => chunks.push(chunk.toString()), onEnd: () => resolve('ended'), onError: resolve });
    });
    await waitFor(() => chunks.length === 1);
    ctx.abortSource.abort();
    expect(await failure).toMatchObject({ code: 'client_closed_request' });
    await waitFor(() => closed.includes('/aborted'));
  });

  it('is never asked for when the client left before the call', async () => {
    const ctx = createContext();
    ctx.abortSource.abort();
    await expect(callVendor(ctx, runtimeVendor, { method: 'GET', path: '/never' })).rejects.toMatchObject({ status: 499, code: 'client_closed_request' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requested).not.toContain('/never');
  });
});
