import { performance } from 'node:perf_hooks';
import { GatewayError } from '../errors.ts';
import type { Admission } from '../limits/limiter.ts';
import { authenticate } from './auth.ts';
import { checkRequestHead } from './check-request-head.ts';
import type { DispatchTable } from './dispatch-table.ts';
import type { GatewayContext } from './gateway-context.ts';
import { checkJsonBytes, getUnsupportedMediaTypeError, isJsonContentType, isMultipartContentType } from './json-bytes.ts';
import { readMultipartModel } from './multipart.ts';
import { serveNative } from './native.ts';
import { checkNativeParams, hasNoBody } from './native-access.ts';
import { getBodyTimeoutError, parseJsonBody, readBody } from './read-body.ts';
import { readModelId } from './resolve-model.ts';
import { runModel } from './run-model.ts';
import type { Services } from './services.ts';
import type { OpCall } from './types.ts';
import { validateBody } from './validate.ts';

/** What a request's serving reports the error it failed with to (once): one function for every request. */
export type OnFailure = (ctx: GatewayContext, error: unknown) => void;

/**
 * Route → auth → rate check → body → concurrency slot → model → token and budget reservation → handler.
 * The slot is taken only once the body is in (a slow body never pins one); the body has a deadline from
 * the end of the headers; the reservation (the request's largest usage) once the body is parsed.
 * A JSON body is read with a callback (no promise on the hot path): what fails after it goes to
 * `onFailure`; what fails before, a throw from here or a rejection of the promise returned, is the
 * caller's to hand to it.
 */
export function serveRequest(ctx: GatewayContext, services: Services, dispatch: DispatchTable, onFailure: OnFailure): void | Promise<void> {
  const { route } = ctx;
  checkRequestHead(ctx.req);
  if (!ctx.matched) throw new GatewayError(404, 'route_not_found', `No route for ${ctx.req.method} ${ctx.route.path}.`);
  if (ctx.invalidParam !== undefined) {
    throw new GatewayError(400, 'invalid_path', `The path parameter \`${ctx.invalidParam}\` is not valid percent-encoding.`, { param: ctx.invalidParam });
  }
  if (route.native) checkNativeParams(ctx.params);
  ctx.key = authenticate(ctx);
  const pending = services.limiter.admit(ctx.key.config);
  if (pending instanceof Promise) return pending.then((admission) => serveAdmitted(ctx, services, dispatch, admission, onFailure));
  return serveAdmitted(ctx, services, dispatch, pending, onFailure);
}

/** The request once admitted by its key's limits: its body, then its model (or its model-less handler). */
function serveAdmitted(
  ctx: GatewayContext,
  services: Services,
  dispatch: DispatchTable,
  admission: Admission,
  onFailure: OnFailure,
): void | Promise<void> {
  ctx.admission = admission;
  // The client left while its limits were being checked: the close handler has run already.
  if (ctx.abortSource.aborted) admission.release();
  admission.copyHeaders(ctx.headers);
  const { route, req } = ctx;
  if (route.model.from === 'none' && !route.native) return serveModelless(ctx, dispatch, admission);
  const formBody = route.body === 'multipart' || (route.multipart === true && isMultipartContentType(req.headers['content-type']));
  if (route.body !== 'json' || formBody || (route.native && hasNoBody(req))) return serveUnparsed(ctx, services, dispatch, admission, formBody);
  const contentType = req.headers['content-type'];
  if (!isJsonContentType(contentType)) throw getUnsupportedMediaTypeError(contentType);
  const { bodyLimitBytes, bodyTimeoutMs } = ctx.snapshot.config.server;
  readBody(req, bodyLimitBytes, bodyTimeoutMs && ctx.startedAt + bodyTimeoutMs, (error, raw) => {
    if (error) return onFailure(ctx, error);
    ctx.bodyReceived = true;
    try {
      serveJson(ctx, services, dispatch, admission, raw!).then(undefined, (failure: unknown) => onFailure(ctx, failure));
    } catch (thrown) {
      onFailure(ctx, thrown);
    }
  });
}

/** A JSON route's request once its body is in: checked, parsed, validated, then served. */
function serveJson(ctx: GatewayContext, services: Services, dispatch: DispatchTable, admission: Admission, raw: Buffer): Promise<void> {
  checkJsonBytes(raw);
  const body = parseJsonBody(raw);
  const { route } = ctx;
  if (route.schema) validateBody(route.schema, body);
  if (route.native) return serveNative(ctx, body, raw, () => admission.acquire());
  return runModel(ctx, services, dispatch, admission, { body, raw }, readModelId(ctx, body));
}

/** A model-less operation (listings, retrievals): its concurrency slot, then its handler. */
async function serveModelless(ctx: GatewayContext, dispatch: DispatchTable, admission: Admission): Promise<void> {
  // No promise when the key has no concurrency limit; no body to wait for here.
  const taking = admission.acquire();
  if (taking) await taking;
  await dispatch.getModellessHandler(ctx.route.op)({ ctx, body: undefined } as unknown as OpCall);
}

/** A request with no JSON body to parse: a multipart upload (streamed on) or none at all. */
async function serveUnparsed(ctx: GatewayContext, services: Services, dispatch: DispatchTable, admission: Admission, formBody: boolean): Promise<void> {
  let upload: OpCall['upload'];
  let multipartModel: string | undefined;
  if (formBody) {
    const { bodyLimitBytes, bodyTimeoutMs } = ctx.snapshot.config.server;
    limitUploadTime(ctx, bodyTimeoutMs);
    const form = await readMultipartModel(ctx.req, { field: ctx.route.model.name, limitBytes: bodyLimitBytes, signal: ctx.signal });
    multipartModel = form.model;
    upload = form.body;
    upload.on('error', () => undefined);
    ctx.res.once('close', () => void form.cleanup());
  }
  if (ctx.route.native) return serveNative(ctx, undefined, undefined, () => admission.acquire());
  return runModel(ctx, services, dispatch, admission, { body: undefined, upload }, readModelId(ctx, undefined, multipartModel));
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
