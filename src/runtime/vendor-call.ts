import { Readable } from 'node:stream';
import { GatewayError } from '../errors.ts';
import type { AbortSource } from './abort-source.ts';
import type { Dispatcher } from 'undici';
import { VendorAnswer } from './vendor-answer.ts';
import type { RequestContext, RuntimeVendor, VendorRequest, VendorResponse } from './types.ts';

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
  const options: Dispatcher.DispatchOptions = { origin: vendor.origin, path, method: request.method, headers, body: request.body };
  if (!vendor.signer) return dispatchVendorCall(ctx, vendor, options, signal);
  const body = typeof request.body === 'string' || Buffer.isBuffer(request.body) ? request.body : undefined;
  return vendor.signer({ method: request.method, origin: vendor.origin, path, headers, body }).then((signed) => {
    Object.assign(headers, signed);
    return dispatchVendorCall(ctx, vendor, options, signal);
  });
}

function dispatchVendorCall(
  ctx: RequestContext,
  vendor: RuntimeVendor,
  options: Dispatcher.DispatchOptions,
  signal: AbortSignal | AbortSource,
): Promise<VendorResponse> {
  return new Promise((resolve, reject) => {
    const answer = new VendorAnswer(ctx, vendor, signal, resolve, reject);
    if (options.body instanceof Readable) answer.upload = options.body;
    vendor.dispatcher.dispatch(options, answer);
  });
}
