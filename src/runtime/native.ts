import type { NativeEntry } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import { getProtocolAdapter } from '../protocols/index.ts';
import { formatRetryAfter } from '../routing/retry-after.ts';
import { openBody } from './body-reading.ts';
import { collectBody, type Collected } from './collect-chunks.ts';
import { authorizeNative, signNativeTaskId } from './native-access.ts';
import { sendBytes } from './respond.ts';
import { callVendor } from './vendor-call.ts';
import { toVendorFailure } from './vendor-failure.ts';
import { readErrorBody, toVendorError } from './vendor-error.ts';
import type { RequestContext, RuntimeVendor, VendorRequest, VendorResponse } from './types.ts';

/** The largest vendor answer a native entry relays (it is read whole: its task id may need signing). */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

const PARAM = /\{(\w+)\}/g;

/** The vendor path: the entry's template with the (checked) parameters, then the allowed query parameters. */
function buildNativePath(ctx: RequestContext, entry: NativeEntry): string {
  const path = entry.path.replace(PARAM, (_, name: string) => encodeURIComponent(ctx.params[name] ?? ''));
  if (entry.query.length === 0 || !ctx.rawQuery) return path;
  const query = new URLSearchParams();
  for (const name of entry.query) for (const value of ctx.query.getAll(name)) query.append(name, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** The request headers sent: only the entry's allowlist, plus the JSON body's type and length. */
function pickNativeHeaders(ctx: RequestContext, entry: NativeEntry, body: Buffer | string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of entry.requestHeaders) {
    const value = ctx.req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return headers;
}

/** The body sent: the client's bytes, with the model renamed when the gateway's name differs from the vendor's. */
function buildNativeBody(ctx: RequestContext, body: any, raw: Buffer | undefined): Buffer | string | undefined {
  if (!raw) return undefined;
  const { name } = ctx.route.model;
  const upstream = ctx.target?.upstream;
  if (ctx.route.model.from !== 'body' || upstream === undefined || body[name] === upstream) return raw;
  return JSON.stringify({ ...body, [name]: upstream });
}

function readAnswer(ctx: RequestContext, vendor: RuntimeVendor, response: VendorResponse): Promise<Collected> {
  const reading = openBody(response);
  return new Promise((resolve, reject) => {
    collectBody(reading, MAX_ANSWER_BYTES, (error, collected) => {
      if (error !== undefined) return reject(toVendorFailure(error, ctx, vendor));
      if (!collected.ended) {
        reading.destroy();
        return reject(new GatewayError(502, 'upstream_invalid_response', `Vendor "${vendor.config.name}" answered more than 8 MiB.`));
      }
      resolve(collected);
    });
  });
}

/** Answers the vendor's 2xx body: JSON with its task id signed (usage read), anything else as it came. */
function relayAnswer(ctx: RequestContext, entry: NativeEntry, vendor: RuntimeVendor, response: VendorResponse, bytes: Buffer): void {
  const headers: Record<string, string> = {};
  const type = response.headers['content-type'];
  if (typeof type === 'string') headers['content-type'] = type;
  for (const name of entry.responseHeaders) {
    const value = name === 'retry-after' ? formatRetryAfter(response.headers) : response.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  let body: Buffer | string = bytes;
  if (typeof type === 'string' && type.includes('json')) {
    let answer: unknown;
    try {
      answer = JSON.parse(bytes.toString('utf8'));
    } catch {
      throw new GatewayError(502, 'upstream_invalid_response', `Vendor "${vendor.config.name}" answered with a body that is not valid JSON.`);
    }
    ctx.addAnswerUsage(bytes, getProtocolAdapter(vendor.config.protocol));
    if (signNativeTaskId(ctx, entry, answer)) body = JSON.stringify(answer);
  }
  sendBytes(ctx, response.status, body, headers);
}

/**
 * Serves a vendor-native route (`op: native`): authorizes the key (model allowlist, or the entry's grant),
 * takes the key's concurrency slot, forwards the declared method and path to the entry's vendor with the
 * gateway's credential and only the allowed headers and query parameters, and answers the vendor's JSON
 * with its task id signed for the key. Vendor errors are answered in the caller's style, as everywhere.
 */
export async function serveNative(ctx: RequestContext, body: any, raw: Buffer | undefined, acquire: () => Promise<void> | void): Promise<void> {
  const entry = ctx.route.native!;
  const vendor = ctx.snapshot.vendors.get(entry.vendor)!;
  authorizeNative(ctx, entry, body);
  ctx.vendor = vendor;
  const taking = acquire();
  if (taking) await taking;
  const payload = buildNativeBody(ctx, body, raw);
  const request: VendorRequest = { method: ctx.route.method, path: buildNativePath(ctx, entry), headers: pickNativeHeaders(ctx, entry, payload), body: payload };
  const response = await callVendor(ctx, vendor, request);
  if (response.status >= 400) {
    const { json } = await readErrorBody(response);
    throw toVendorError(vendor, response.status, json, response.headers);
  }
  const answer = await readAnswer(ctx, vendor, response);
  relayAnswer(ctx, entry, vendor, response, Buffer.concat(answer.chunks, answer.size));
}
