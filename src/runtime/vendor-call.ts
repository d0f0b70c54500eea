import { performance } from 'node:perf_hooks';
import { GatewayError } from '../errors.ts';
import type { AbortSource } from './abort-source.ts';
import type { Dispatcher } from 'undici';
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

/** How a vendor's credential and configured headers are sent: worked out once per vendor, not per call. */
interface AuthPlan {
  headers: [string, string][];
  /** `name=value`, URL-encoded, for vendors that take the key in the query. */
  query?: string;
  /** The vendor's `env:` key is unset: calls are answered 503 instead of being made with an empty key. */
  missing: boolean;
}

const authPlans = new WeakMap<RuntimeVendor, AuthPlan>();

function getAuthPlan(vendor: RuntimeVendor): AuthPlan {
  let plan = authPlans.get(vendor);
  if (plan) return plan;
  const { auth } = vendor.config;
  const secret = vendor.secret ?? '';
  plan = { headers: Object.entries(vendor.config.headers), missing: auth.kind !== 'none' && !secret };
  if (auth.kind === 'bearer') plan.headers.push(['authorization', `Bearer ${secret}`]);
  else if (auth.kind === 'header') plan.headers.push([auth.header, secret]);
  else if (auth.kind === 'query') plan.query = `${encodeURIComponent(auth.param)}=${encodeURIComponent(secret)}`;
  authPlans.set(vendor, plan);
  return plan;
}

/** Names the vendor, never its variable: the client learns what is down, not how the gateway is set up. */
function toNotConfigured(vendor: RuntimeVendor): GatewayError {
  return new GatewayError(503, 'vendor_not_configured', `Vendor "${vendor.config.name}" has no credential configured on this gateway.`);
}

function applyAuthPlan(plan: AuthPlan, path: string, headers: Record<string, string>): string {
  for (const [name, value] of plan.headers) headers[name] = value;
  return plan.query === undefined ? path : `${path}${path.includes('?') ? '&' : '?'}${plan.query}`;
}

/**
 * The vendor's configured headers plus its auth header, and the path with its auth query parameter.
 * Throws 503 `vendor_not_configured` when the vendor's key is unset (no call goes out with an empty key).
 */
export function addVendorAuth(vendor: RuntimeVendor, path: string, headers: Record<string, string>): string {
  const plan = getAuthPlan(vendor);
  if (plan.missing) throw toNotConfigured(vendor);
  return applyAuthPlan(plan, path, headers);
}

/** Where a vendor answer's body keeps its request and the time its call was sent (no closure per call). */
const TIMING = Symbol('vendorTiming');
type TimedBody = { [TIMING]?: { ctx: RequestContext; sentAt: number } };

/** Adds a vendor call's time, from dispatch to the end of its body, to the request's vendor time. */
function onVendorBodyClose(this: TimedBody): void {
  const timing = this[TIMING];
  if (timing) timing.ctx.vendorMs += performance.now() - timing.sentAt;
}

/**
 * Calls a vendor: joins the base path, adds the vendor's auth and configured headers to `request.headers`
 * (which the call owns from then on), and shares the request's abort. Rejects with a GatewayError when no
 * response arrives.
 */
export function callVendor(
  ctx: RequestContext,
  vendor: RuntimeVendor,
  request: VendorRequest,
  signal: AbortSignal | AbortSource = ctx.abortSource,
): Promise<VendorResponse> {
  const headers = request.headers ?? {};
  const plan = getAuthPlan(vendor);
  if (plan.missing) return Promise.reject(toNotConfigured(vendor));
  const path = applyAuthPlan(plan, vendor.basePath + request.path, headers);
  ctx.vendorCalls++;
  const options: Dispatcher.RequestOptions = { origin: vendor.origin, path, method: request.method, headers, body: request.body, signal: signal as AbortSignal };
  if (!vendor.signer) return dispatchVendorCall(ctx, vendor, options);
  const body = typeof request.body === 'string' || Buffer.isBuffer(request.body) ? request.body : undefined;
  return vendor.signer({ method: request.method, origin: vendor.origin, path, headers, body }).then((signed) => {
    Object.assign(headers, signed);
    return dispatchVendorCall(ctx, vendor, options);
  });
}

function dispatchVendorCall(ctx: RequestContext, vendor: RuntimeVendor, options: Dispatcher.RequestOptions): Promise<VendorResponse> {
  const sentAt = performance.now();
  return new Promise((resolve, reject) => {
    vendor.dispatcher.request(options, (error, response) => {
      if (error) {
        ctx.vendorMs += performance.now() - sentAt;
        reject(toVendorFailure(error, ctx, vendor));
        return;
      }
      (response.body as TimedBody)[TIMING] = { ctx, sentAt };
      response.body.once('close', onVendorBodyClose);
      resolve({ status: response.statusCode, headers: response.headers, body: response.body as VendorResponse['body'] });
    });
  });
}
