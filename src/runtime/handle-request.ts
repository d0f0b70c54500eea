import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Style } from '../config/types.ts';
import { GatewayError, renderError, renderStreamError, toGatewayError } from '../errors.ts';
import { authenticate } from './auth.ts';
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

/** Guesses the caller's style for a request that matched no route (for the 404 body). */
function guessStyle(path: string): Style {
  if (path.startsWith('/v1beta/')) return 'gemini';
  if (path.startsWith('/v1/messages')) return 'anthropic';
  return 'openai';
}

function createContext(req: IncomingMessage, res: ServerResponse, snapshot: Snapshot, abort: AbortController): RequestContext {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const match = snapshot.match(req.method ?? 'GET', path);
  const route = match?.route ?? { method: 'GET', path, style: guessStyle(path), op: 'models-list', model: { from: 'none', name: '' }, body: 'none' };
  const id = randomUUID();
  return {
    id,
    startedAt: performance.now(),
    deadline: Date.now() + 600_000,
    signal: abort.signal,
    style: route.style,
    route: route as RequestContext['route'],
    params: match?.params ?? {},
    query: new URLSearchParams(q === -1 ? '' : url.slice(q + 1)),
    snapshot,
    usage: {},
    vendorCalls: 0,
    headers: { 'x-request-id': id },
    req,
    res,
    matched: match !== undefined,
  } as RequestContext & { matched: boolean };
}

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

async function serve(ctx: RequestContext & { matched?: boolean }, services: Services, admitted: (a: Admission) => void): Promise<void> {
  const { route } = ctx;
  if (!ctx.matched) throw new GatewayError(404, 'route_not_found', `No route for ${ctx.req.method} ${ctx.route.path}.`);
  ctx.key = authenticate(ctx);
  const admission = await services.limiter.admit(ctx.key.config);
  admitted(admission);
  Object.assign(ctx.headers, admission.headers);
  if (route.model.from === 'none') {
    await getModellessHandler(route.op)({ ctx, body: undefined } as OpCall);
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
  const single = model.targets.length === 1 && model.fallback.length === 0;
  await runAttempts({
    targets: single ? model.targets : orderTargets(model, Math.random),
    policy: model.routing,
    signal: ctx.signal,
    deadline: model.routing.deadlineMs ? Math.min(ctx.deadline, Date.now() + model.routing.deadlineMs) : ctx.deadline,
    health: single ? undefined : services.health,
    attempt: async (attempt) => {
      const target = attempt.target;
      const vendor = ctx.snapshot.vendors.get(target.vendor)!;
      ctx.target = target;
      ctx.vendor = vendor;
      ctx.commit = attempt.commit;
      const call: OpCall = {
        ctx,
        body,
        raw: upload ? undefined : raw,
        upload,
        model,
        target,
        vendor,
        callVendor: (request, vendorName) =>
          callVendor(ctx, vendorName ? ctx.snapshot.vendors.get(vendorName)! : vendor, request, attempt.signal),
      };
      await getHandler(route.op, ctx.style, vendor.config.protocol)(call);
    },
  });
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

/**
 * The gateway's request listener: route → auth → body → model → handler, every error rendered in the
 * caller's style, and one usage event at the end. The snapshot is taken once, at the request's start.
 */
export function createRequestHandler(
  getSnapshot: () => Snapshot,
  services: Services,
  sink: UsageSink,
  fallback?: (req: IncomingMessage, res: ServerResponse) => boolean,
) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const abort = new AbortController();
    const ctx = createContext(req, res, getSnapshot(), abort);
    if (!(ctx as { matched?: boolean }).matched && fallback?.(req, res)) return;
    let failure: GatewayError | undefined;
    let admission: Admission | undefined;
    res.once('close', () => {
      if (!res.writableFinished) abort.abort();
      if (!res.headersSent) failure ??= new GatewayError(499, 'client_closed_request', 'The client closed the request.');
      admission?.release();
      const event = toUsageEvent(ctx, failure);
      const tokens = (event.usage.inputTokens ?? 0) + (event.usage.outputTokens ?? 0);
      if (tokens > 0) admission?.charge(tokens);
      sink(event);
    });
    serve(ctx, services, (a) => {
      admission = a;
      // The client left while its limits were being checked: the close handler has run already.
      if (abort.signal.aborted) a.release();
    }).catch((error: unknown) => {
      failure = toGatewayError(error);
      if (failure.status === 499 || res.destroyed) return;
      sendError(ctx, failure);
    });
  };
}
