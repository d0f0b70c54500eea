import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { TargetEntry } from '../config/types.ts';
import { GatewayError, renderError, renderStreamError, toGatewayError } from '../errors.ts';
import type { AbortSource } from './abort-source.ts';
import { authenticate } from './auth.ts';
import { addUsageEstimate } from './estimate-usage.ts';
import { GatewayContext } from './gateway-context.ts';
import { readMultipartModel } from './multipart.ts';
import { getHandler, getModellessHandler } from './plan.ts';
import { parseJsonBody, readBody } from './read-body.ts';
import { readModelId, resolveModel } from './resolve-model.ts';
import { validateBody } from './validate.ts';
import { callVendor } from './vendor-call.ts';
import type { Admission } from '../limits/limiter.ts';
import { orderTargets } from '../routing/order-targets.ts';
import { runAttempts } from '../routing/run-attempts.ts';
import type { Services } from './services.ts';
import type { OpCall, RequestContext, Snapshot, UsageEvent } from './types.ts';

/** Receives the one usage event every request ends with. */
export type UsageSink = (event: UsageEvent) => void;

/** Sends an error in the caller's style, or ends an open stream with the style's error event. */
export function sendError(ctx: RequestContext, error: GatewayError): void {
  const { res } = ctx;
  if (res.headersSent) {
    if (!res.writableEnded && !res.destroyed) res.end(renderStreamError(ctx.style, error, ctx.id));
    return;
  }
  const rendered = renderError(ctx.style, error, ctx.id);
  res.writeHead(rendered.status, { ...ctx.headers, ...rendered.headers, 'content-length': String(Buffer.byteLength(rendered.body)) });
  res.end(rendered.body);
}

/** Where a request's admission goes once its limits are checked (the close handler releases it). */
interface AdmissionHolder {
  admission?: Admission;
}

async function serve(ctx: GatewayContext, services: Services, holder: AdmissionHolder): Promise<void> {
  const { route } = ctx;
  if (!ctx.matched) throw new GatewayError(404, 'route_not_found', `No route for ${ctx.req.method} ${ctx.route.path}.`);
  ctx.key = authenticate(ctx);
  const pending = services.limiter.admit(ctx.key.config);
  const admission = pending instanceof Promise ? await pending : pending;
  holder.admission = admission;
  // The client left while its limits were being checked: the close handler has run already.
  if (ctx.abortSource.aborted) admission.release();
  Object.assign(ctx.headers, admission.headers);
  if (route.model.from === 'none') {
    await getModellessHandler(route.op)({ ctx, body: undefined } as unknown as OpCall);
    return;
  }
  let body: any;
  let raw: Buffer | undefined;
  let upload: OpCall['upload'];
  let multipartModel: string | undefined;
  const limit = ctx.snapshot.config.server.bodyLimitBytes;
  if (route.body === 'json') {
    raw = await readBody(ctx.req, limit);
    body = parseJsonBody(raw);
    if (route.schema) validateBody(route.schema, body);
  } else if (route.body === 'multipart') {
    const form = await readMultipartModel(ctx.req, { field: route.model.name, limitBytes: limit, signal: ctx.signal });
    multipartModel = form.model;
    upload = form.body;
    upload.on('error', () => undefined);
    ctx.res.once('close', () => void form.cleanup());
  }
  const modelId = readModelId(ctx, body, multipartModel);
  const model = resolveModel(ctx, modelId);
  ctx.modelId = modelId;
  ctx.model = model;
  const input: CallInput = { body, raw: upload ? undefined : raw, upload };
  const { routing } = model;
  if (model.targets.length === 1 && model.fallback.length === 0 && routing.retries === 0 && !routing.attemptTimeoutMs && !routing.deadlineMs) {
    // One target, nothing to retry: no attempt machinery on the hot path (same outcome as runAttempts).
    return runTarget(ctx, input, model.targets[0], ctx.abortSource);
  }
  await runAttempts({
    targets: orderTargets(model, Math.random),
    policy: routing,
    signal: ctx.signal,
    deadline: routing.deadlineMs ? Math.min(ctx.deadline, Date.now() + routing.deadlineMs) : ctx.deadline,
    health: services.health,
    attempt: (attempt) => runTarget(ctx, input, attempt.target, attempt.signal, attempt.commit),
  });
}

/** What a request hands to every attempt: its parsed body, raw bytes or upload stream. */
interface CallInput {
  body: any;
  raw?: Buffer;
  upload?: OpCall['upload'];
}

/** Runs the operation's handler against one target (one attempt). */
function runTarget(
  ctx: RequestContext,
  input: CallInput,
  target: TargetEntry,
  signal: AbortSignal | AbortSource,
  commit?: () => void,
): Promise<void> {
  const vendor = ctx.snapshot.vendors.get(target.vendor)!;
  ctx.target = target;
  ctx.vendor = vendor;
  ctx.commit = commit;
  const call: OpCall = {
    ctx,
    body: input.body,
    raw: input.raw,
    upload: input.upload,
    model: ctx.model!,
    target,
    vendor,
    callVendor: (request, vendorName) => callVendor(ctx, vendorName ? ctx.snapshot.vendors.get(vendorName)! : vendor, request, signal),
  };
  return getHandler(ctx.route.op, ctx.style, vendor.config.protocol)(call);
}

function toUsageEvent(ctx: RequestContext, error?: GatewayError): UsageEvent {
  return {
    requestId: ctx.id,
    key: ctx.key?.config.name,
    model: ctx.modelId,
    vendor: ctx.vendor?.config.name,
    op: ctx.route.op,
    style: ctx.style,
    status: error?.status ?? ctx.res.statusCode,
    ...(error ? { error: error.code } : {}),
    ttfbMs: ctx.ttfbMs,
    durationMs: performance.now() - ctx.startedAt,
    vendorCalls: ctx.vendorCalls,
    usage: ctx.usage,
  };
}

/** Counts the requests being answered (streams included), for a graceful drain. */
export interface InFlight {
  active: number;
  /** The route-table requests being answered, so that the drain deadline can end each in its style. */
  contexts: Set<RequestContext>;
  /** The error the drain deadline ended the requests left with (src/runtime/drain.ts). */
  cut?: GatewayError;
}

/** Sends the error a request failed with, unless the client is gone. */
function fail(ctx: GatewayContext, error: unknown): GatewayError {
  const failure = toGatewayError(error);
  if (failure.status !== 499 && !ctx.res.destroyed) sendError(ctx, failure);
  return failure;
}

/**
 * The gateway's request listener: route → auth → body → model → handler, every error rendered in the
 * caller's style, and one usage event at the end when anything listens (`sink`). The snapshot is taken
 * once, at the request's start.
 */
export function createRequestHandler(
  getSnapshot: () => Snapshot,
  services: Services,
  sink: UsageSink | undefined,
  fallback?: (req: IncomingMessage, res: ServerResponse) => boolean,
  inFlight: InFlight = { active: 0, contexts: new Set() },
) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const ctx = new GatewayContext(req, res, getSnapshot());
    inFlight.active++;
    if (!ctx.matched && fallback?.(req, res)) {
      res.on('close', () => inFlight.active--);
      return;
    }
    let failure: GatewayError | undefined;
    const holder: AdmissionHolder = {};
    inFlight.contexts.add(ctx);
    res.on('close', () => {
      inFlight.active--;
      // Gone from the set before its close: the drain deadline ended it (and aborted its vendor call).
      if (!inFlight.contexts.delete(ctx)) failure = inFlight.cut;
      else if (!res.writableFinished) {
        ctx.abortSource.abort();
        // The client left before the answer was complete (before or during a stream): logged as 499.
        failure ??= new GatewayError(499, 'client_closed_request', 'The client closed the request.');
      }
      const { admission } = holder;
      if (sink || admission?.countsTokens) addUsageEstimate(ctx, failure === undefined);
      if (admission) {
        admission.release();
        if (admission.countsTokens) admission.charge((ctx.usage.inputTokens ?? 0) + (ctx.usage.outputTokens ?? 0));
      }
      if (sink) sink(toUsageEvent(ctx, failure));
    });
    serve(ctx, services, holder).then(undefined, (error: unknown) => {
      failure = fail(ctx, error);
    });
  };
}
