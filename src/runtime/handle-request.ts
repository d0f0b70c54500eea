import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { TargetEntry } from '../config/types.ts';
import { GatewayError, toGatewayError } from '../errors.ts';
import { renderError, renderStreamError } from '../protocols/render-error.ts';
import { DEFAULT_STYLE } from '../protocols/styles.ts';
import type { AbortSource } from './abort-source.ts';
import { authenticate } from './auth.ts';
import { addUsageEstimate } from './estimate-usage.ts';
import { checkRequestHead } from './check-request-head.ts';
import { attachContext } from './response-context.ts';
import { GatewayContext } from './gateway-context.ts';
import { readMultipartModel } from './multipart.ts';
import { serveNative } from './native.ts';
import { checkNativeParams, hasNoBody } from './native-access.ts';
import { drainRequest } from './drain-request.ts';
import { checkJsonBytes, getUnsupportedMediaTypeError, isJsonContentType, isMultipartContentType } from './json-bytes.ts';
import { getBodyTimeoutError, parseJsonBody, readBody } from './read-body.ts';
import { readModelId, resolveModel } from './resolve-model.ts';
import { validateBody } from './validate.ts';
import { callVendor } from './vendor-call.ts';
import type { Admission } from '../limits/limiter.ts';
import { estimateReservation } from '../spend/estimate-reservation.ts';
import { getCost } from '../spend/get-cost.ts';
import { orderTargets } from '../routing/order-targets.ts';
import { runAttempts } from '../routing/run-attempts.ts';
import type { Services } from './services.ts';
import type { DispatchTable } from './dispatch-table.ts';
import type { OpCall, RequestContext, Snapshot, UsageEvent } from './types.ts';
import { createUsageEvent, getTargetName } from './usage-event.ts';

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

/**
 * Route → auth → rate check → body → concurrency slot → model → token and budget reservation → handler.
 * The slot is taken only once the body is in (a slow body never pins one); the body has a deadline from
 * the end of the headers; the reservation (the request's largest usage) once the body is parsed.
 */
async function serve(ctx: GatewayContext, services: Services, dispatch: DispatchTable, holder: AdmissionHolder): Promise<void> {
  const { route } = ctx;
  checkRequestHead(ctx.req);
  if (!ctx.matched) throw new GatewayError(404, 'route_not_found', `No route for ${ctx.req.method} ${ctx.route.path}.`);
  if (ctx.invalidParam !== undefined) {
    throw new GatewayError(400, 'invalid_path', `The path parameter \`${ctx.invalidParam}\` is not valid percent-encoding.`, { param: ctx.invalidParam });
  }
  if (route.native) checkNativeParams(ctx.params);
  ctx.key = authenticate(ctx);
  const pending = services.limiter.admit(ctx.key.config);
  const admission = pending instanceof Promise ? await pending : pending;
  holder.admission = admission;
  // The client left while its limits were being checked: the close handler has run already.
  if (ctx.abortSource.aborted) admission.release();
  Object.assign(ctx.headers, admission.headers);
  if (route.model.from === 'none' && !route.native) {
    // The concurrency slot (no promise when the key has no concurrency limit); no body to wait for here.
    const taking = admission.acquire();
    if (taking) await taking;
    await dispatch.getModellessHandler(route.op)({ ctx, body: undefined } as unknown as OpCall);
    return;
  }
  let body: any;
  let raw: Buffer | undefined;
  let upload: OpCall['upload'];
  let multipartModel: string | undefined;
  const { bodyLimitBytes: limit, bodyTimeoutMs } = ctx.snapshot.config.server;
  const formBody = route.body === 'multipart' || (route.multipart === true && isMultipartContentType(ctx.req.headers['content-type']));
  if (route.body === 'json' && !formBody && !(route.native && hasNoBody(ctx.req))) {
    const contentType = ctx.req.headers['content-type'];
    if (!isJsonContentType(contentType)) throw getUnsupportedMediaTypeError(contentType);
    // Whole milliseconds: nearly every request then shares one timer list (Node keeps a list per duration).
    raw = await readBody(ctx.req, limit, bodyTimeoutMs && Math.max(1, Math.ceil(ctx.startedAt + bodyTimeoutMs - performance.now())));
    checkJsonBytes(raw);
    body = parseJsonBody(raw);
    if (route.schema) validateBody(route.schema, body);
  } else if (formBody) {
    limitUploadTime(ctx, bodyTimeoutMs);
    const form = await readMultipartModel(ctx.req, { field: route.model.name, limitBytes: limit, signal: ctx.signal });
    multipartModel = form.model;
    upload = form.body;
    upload.on('error', () => undefined);
    ctx.res.once('close', () => void form.cleanup());
  }
  if (route.native) return serveNative(ctx, body, raw, () => admission.acquire());
  const modelId = readModelId(ctx, body, multipartModel);
  const model = resolveModel(ctx, modelId);
  ctx.modelId = modelId;
  ctx.model = model;
  const taking = admission.acquire();
  if (taking) await taking;
  // Keys without a token limit or budget reserve nothing: no estimate is made for them.
  if (admission.countsTokens) {
    // A store in this process reserves at once (no promise); its headers are the answer's either way.
    try {
      const reserving = admission.reserve(estimateReservation(route.op, model, body, raw?.length ?? 0));
      if (reserving) await reserving;
    } finally {
      Object.assign(ctx.headers, admission.headers);
    }
  }
  const input: CallInput = { body, raw: upload ? undefined : raw, upload };
  const { routing } = model;
  if (model.targets.length === 1 && model.fallback.length === 0 && routing.retries === 0 && !routing.attemptTimeoutMs && !routing.deadlineMs) {
    // One target, nothing to retry: no attempt machinery on the hot path (same outcome as runAttempts).
    return runTarget(ctx, dispatch, input, model.targets[0], ctx.abortSource);
  }
  await runAttempts({
    targets: orderTargets(model, Math.random),
    policy: routing,
    signal: ctx.signal,
    deadline: routing.deadlineMs ? Math.min(ctx.deadline, Date.now() + routing.deadlineMs) : ctx.deadline,
    health: services.health,
    onCooling: (target) => (ctx.coolingTargets ??= []).push(getTargetName(target)),
    attempt: (attempt) => runTarget(ctx, dispatch, input, attempt.target, attempt.signal, attempt.commit),
  });
}

/**
 * Bounds a streamed upload (multipart) by the body deadline: a body still arriving past it aborts the
 * request with 408, whether the gateway is still reading it or already forwarding it.
 */
function limitUploadTime(ctx: GatewayContext, bodyTimeoutMs: number): void {
  if (!bodyTimeoutMs) return;
  const timer = setTimeout(() => {
    if (!ctx.req.complete) ctx.abortSource.abort(getBodyTimeoutError());
  }, Math.max(1, ctx.startedAt + bodyTimeoutMs - performance.now()));
  ctx.res.once('close', () => clearTimeout(timer));
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
  dispatch: DispatchTable,
  input: CallInput,
  target: TargetEntry,
  signal: AbortSignal | AbortSource,
  commit?: () => void,
): Promise<void> {
  const vendor = ctx.snapshot.vendors.get(target.vendor)!;
  // A second attempt: the one before it failed (a committed attempt is never followed by another).
  if (ctx.attempts++ > 0 && ctx.target) (ctx.failedTargets ??= []).push(getTargetName(ctx.target));
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
  return dispatch.getHandler(ctx.route.op, ctx.style, vendor.config.protocol)(call);
}

/** Counts the requests being answered (streams included), for a graceful drain. */
export interface InFlight {
  active: number;
  /** The route-table requests being answered, so that the drain deadline can end each in its style. */
  contexts: Set<RequestContext>;
  /** The error the drain deadline ended the requests left with (src/runtime/drain.ts). */
  cut?: GatewayError;
  /** Counts the requests per snapshot, so that a reload closes replaced pools when their last request ends. */
  snapshots?: { hold(snapshot: Snapshot): void; release(snapshot: Snapshot): void };
}

/**
 * Sends the error a request failed with, unless the client is gone; an answer sent before the upload
 * ended lets the client finish sending (bounded) so that it can read it. Never throws.
 */
function fail(ctx: GatewayContext, error: unknown): GatewayError {
  let failure = toGatewayError(error);
  // Aborted by the gateway (the body deadline), not by the client: the abort's reason is the answer.
  const { reason } = ctx.abortSource;
  if (failure.status === 499 && reason instanceof GatewayError && reason.status !== 499) failure = reason;
  try {
    if (failure.status === 499 || ctx.res.destroyed) return failure;
    // An answer before the upload ended closes the connection (the client must not send its next request on it).
    const early = !ctx.req.complete;
    if (early) ctx.headers.connection = 'close';
    sendError(ctx, failure);
    if (early) drainRequest(ctx.req, ctx.res, Math.floor(performance.timeOrigin + ctx.startedAt) + ctx.snapshot.config.server.bodyTimeoutMs);
  } catch {
    ctx.res.destroy();
  }
  return failure;
}

/** Hands a usage event to the sink from a close handler, where a throw would end the process. */
function writeUsage(sink: UsageSink, event: UsageEvent): void {
  try {
    sink(event);
  } catch (error) {
    process.emitWarning(error as Error);
  }
}

/** Answers a request no context could be made for: a 500 in the OpenAI shape. Never throws. */
function failBare(res: ServerResponse, error: unknown): void {
  try {
    const id = randomUUID();
    const rendered = renderError(DEFAULT_STYLE, toGatewayError(error), id);
    res.writeHead(rendered.status, { ...rendered.headers, 'x-request-id': id, connection: 'close' });
    res.end(rendered.body);
  } catch {
    res.destroy();
  }
}

/**
 * The gateway's request listener: route → auth → body → model → handler (the one `dispatch` names),
 * every error rendered in the caller's style, and one usage event at the end when anything listens
 * (`sink`). The snapshot is taken once, at the request's start.
 */
export function createRequestHandler(
  getSnapshot: () => Snapshot,
  services: Services,
  dispatch: DispatchTable,
  sink: UsageSink | undefined,
  fallback?: (req: IncomingMessage, res: ServerResponse) => boolean,
  inFlight: InFlight = { active: 0, contexts: new Set() },
) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    let ctx: GatewayContext;
    try {
      ctx = new GatewayContext(req, res, getSnapshot());
      ctx.responseStore = services.responses;
      attachContext(res, ctx);
    } catch (error) {
      failBare(res, error);
      return;
    }
    inFlight.active++;
    inFlight.snapshots?.hold(ctx.snapshot);
    const end = () => {
      inFlight.active--;
      inFlight.snapshots?.release(ctx.snapshot);
    };
    let failure: GatewayError | undefined;
    let watched = false;
    try {
      if (!ctx.matched && fallback?.(req, res)) {
        watched = true;
        res.on('close', end);
        return;
      }
      const holder: AdmissionHolder = {};
      watched = true;
      inFlight.contexts.add(ctx);
      res.on('close', () => {
        end();
        // Gone from the set before its close: the drain deadline ended it (and aborted its vendor call).
        if (!inFlight.contexts.delete(ctx)) failure = inFlight.cut;
        else if (!res.writableFinished) {
          ctx.abortSource.abort();
          // The client left before the answer was complete (before or during a stream): logged as 499.
          failure ??= new GatewayError(499, 'client_closed_request', 'The client closed the request.');
        }
        try {
          const { admission } = holder;
          if (sink || admission?.countsTokens) addUsageEstimate(ctx, failure === undefined && ctx.streamFailure === undefined);
          const costUsd = sink || admission?.countsSpend ? getCost(ctx.usage, ctx.model?.price) : undefined;
          if (admission) {
            admission.release();
            if (admission.countsTokens) admission.charge((ctx.usage.inputTokens ?? 0) + (ctx.usage.outputTokens ?? 0), costUsd);
          }
          if (sink) sink(createUsageEvent(ctx, failure?.status ?? ctx.res.statusCode, performance.now() - ctx.startedAt, failure, costUsd));
        } catch (error) {
          // A close handler runs outside any request's promise: a throw here would end the process.
          process.emitWarning(error as Error);
        }
      });
      serve(ctx, services, dispatch, holder).then(undefined, (error: unknown) => {
        failure = fail(ctx, error);
      });
    } catch (error) {
      failure = fail(ctx, error);
      if (!watched) {
        res.on('close', end);
        // The auxiliary fallback threw: no routed close handler writes this answer's usage event.
        const thrown = failure;
        if (sink) res.once('close', () => writeUsage(sink, createUsageEvent(ctx, thrown.status, performance.now() - ctx.startedAt, thrown)));
      }
    }
  };
}
