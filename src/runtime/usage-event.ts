import type { TargetEntry } from '../config/types.ts';
import type { GatewayError } from '../errors.ts';
import { roundToMicroseconds } from '../lib/format-json-number.ts';
import { isReadingFinishReasons } from './finish-reasons.ts';
import type { RequestContext, UsageEvent } from './types.ts';

/** How long a client address from `X-Forwarded-For` may be in a log line (an IPv6 address is at most 45). */
const MAX_CLIENT_LENGTH = 64;

const targetNames = new WeakMap<TargetEntry, string>();

/** This process's id, read once: no load of the global `process` and of its property per event. */
const PID = process.pid;

/** A target's name, `vendor/upstream`, made once per configured target. */
export function getTargetName(target: TargetEntry): string {
  let name = targetNames.get(target);
  if (name === undefined) targetNames.set(target, (name = `${target.vendor}/${target.upstream}`));
  return name;
}

/**
 * The client's address: the socket's, or with `server.trust_proxy` the first entry of `X-Forwarded-For`
 * (the client as the first proxy saw it), trimmed and clipped.
 */
function readClientAddress(ctx: RequestContext): string | undefined {
  const { req } = ctx;
  if (ctx.snapshot.config.server.trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',', 1)[0].trim();
    if (first) return first.length > MAX_CLIENT_LENGTH ? first.slice(0, MAX_CLIENT_LENGTH) : first;
  }
  return req.socket?.remoteAddress;
}

/** The request's path without its query string (Google-style clients put their key in `?key=`). */
function readPath(url: string | undefined = '/'): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * The usage event a request ends with (logs and metrics read it): who called what, how it went and what
 * it cost, its durations in ms to the microsecond. Fields that only failures or retries have are set only then, so a served request builds no
 * extra objects for them. The request log line writes these keys in this order (src/cli/format-request-line.ts,
 * whose test builds events here): a key added here is added there.
 */
export function createUsageEvent(ctx: RequestContext, status: number, durationMs: number, error?: GatewayError, costUsd?: number): UsageEvent {
  const event: UsageEvent = {
    requestId: ctx.id,
    key: ctx.key?.config.name,
    model: ctx.modelId,
    vendor: ctx.vendor?.config.name,
    target: ctx.target === undefined ? undefined : getTargetName(ctx.target),
    op: ctx.route.op,
    style: ctx.style,
    method: ctx.req.method ?? 'GET',
    path: readPath(ctx.req.url),
    route: ctx.matched ? ctx.route.path : undefined,
    client: readClientAddress(ctx),
    pid: PID,
    status,
    ttfbMs: ctx.ttfbMs === undefined ? undefined : roundToMicroseconds(ctx.ttfbMs),
    durationMs: roundToMicroseconds(durationMs),
    overheadMs: roundToMicroseconds(Math.max(0, durationMs - ctx.vendorMs)),
    vendorCalls: ctx.vendorCalls,
    attempts: ctx.attempts,
    usage: ctx.usage,
    generation: ctx.snapshot.generation,
  };
  if (costUsd !== undefined) event.costUsd = costUsd;
  if (ctx.route.native) event.native = ctx.route.native.name;
  if (ctx.failedTargets) event.failedTargets = ctx.failedTargets;
  if (ctx.coolingTargets) event.coolingTargets = ctx.coolingTargets;
  if (ctx.finishReasons && isReadingFinishReasons()) event.finishReasons = ctx.finishReasons;
  // Set only on failures: a served request builds no extra object for them.
  if (error) {
    event.error = error.code;
    if (error.code === 'internal_error') event.cause = error.cause;
  }
  return event;
}
