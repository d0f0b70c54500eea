import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { GatewayError, toGatewayError } from '../errors.ts';
import { renderError, renderStreamError } from '../protocols/render-error.ts';
import { DEFAULT_STYLE } from '../protocols/styles.ts';
import { addUsageEstimate } from './estimate-usage.ts';
import { attachContext, findContext } from './response-context.ts';
import { GatewayContext } from './gateway-context.ts';
import { InFlightList } from './in-flight-list.ts';
import { drainRequest } from './drain-request.ts';
import { getCost } from '../spend/get-cost.ts';
import type { Services } from './services.ts';
import type { DispatchTable } from './dispatch-table.ts';
import { serveRequest, type OnFailure } from './serve-request.ts';
import type { RequestContext, Snapshot, UsageEvent } from './types.ts';
import { createUsageEvent } from './usage-event.ts';
import { createRequestId } from './request-id.ts';

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

/** Counts the requests being answered (streams included), for a graceful drain. */
export interface InFlight {
  active: number;
  /** The route-table requests being answered, so that the drain deadline can end each in its style. */
  contexts: InFlightList<GatewayContext>;
  /** The error the drain deadline ended the requests left with (src/runtime/drain.ts). */
  cut?: GatewayError;
  /** Counts the requests per snapshot, so that a reload closes replaced pools when their last request ends. */
  snapshots?: { hold(snapshot: Snapshot): void; release(snapshot: Snapshot): void };
}

/** The code of a request whose client left (its status, 499, is also a status a vendor may answer). */
const CLIENT_GONE = 'client_closed_request';

/**
 * Sends the error a request failed with, unless the client is gone; an answer sent before the upload
 * ended lets the client finish sending (bounded) so that it can read it. Never throws.
 */
function fail(ctx: GatewayContext, error: unknown): GatewayError {
  let failure = toGatewayError(error);
  // Aborted by the gateway (the body deadline), not by the client: the abort's reason is the answer.
  const { reason } = ctx.abortSource;
  if (failure.code === CLIENT_GONE && reason instanceof GatewayError && reason.code !== CLIENT_GONE) failure = reason;
  try {
    // The client's leaving is known by its code, not by the status 499: a vendor may answer 499 itself.
    if (failure.code === CLIENT_GONE || ctx.res.destroyed) return failure;
    // An answer before the upload ended closes the connection (the client must not send its next request on it).
    const early = !ctx.req.complete && !ctx.bodyReceived;
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
    const id = createRequestId();
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
  inFlight: InFlight = { active: 0, contexts: new InFlightList() },
) {
  /** Ends a request's count in flight (and its hold of its snapshot). */
  const endInFlight = (ctx: GatewayContext): void => {
    inFlight.active--;
    inFlight.snapshots?.release(ctx.snapshot);
  };
  /** What a routed request's serving reports its error to: answered, and kept for the close handler's usage event. */
  const onFailure: OnFailure = (ctx, error) => {
    ctx.failure = fail(ctx, error);
  };
  /**
   * The close handler of every routed request: one function for all (the response's context holds the
   * request's state, `this` is the response), so a request makes no closures of its own for its end.
   */
  function onRoutedClose(this: ServerResponse): void {
    const ctx = findContext(this)!;
    endInFlight(ctx);
    // Gone from the set before its close: the drain deadline ended it (and aborted its vendor call).
    if (!inFlight.contexts.delete(ctx)) ctx.failure = inFlight.cut;
    else if (!this.writableFinished) {
      ctx.abortSource.abort();
      // The client left before the answer was complete (before or during a stream): logged as 499.
      ctx.failure ??= new GatewayError(499, 'client_closed_request', 'The client closed the request.');
    }
    try {
      const { admission, failure } = ctx;
      if (sink || admission?.countsTokens) addUsageEstimate(ctx, failure === undefined && ctx.streamFailure === undefined);
      const costUsd = sink || admission?.countsSpend ? getCost(ctx.usage, ctx.model?.price) : undefined;
      if (admission) {
        admission.release();
        if (admission.countsTokens) admission.charge((ctx.usage.inputTokens ?? 0) + (ctx.usage.outputTokens ?? 0), costUsd);
      }
      // A stream that failed after its first bytes keeps the status the client got, with the failure's code.
      if (sink) sink(createUsageEvent(ctx, failure?.status ?? ctx.res.statusCode, performance.now() - ctx.startedAt, failure ?? ctx.streamFailure, costUsd));
    } catch (error) {
      // A close handler runs outside any request's promise: a throw here would end the process.
      process.emitWarning(error as Error);
    }
  }
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
    let watched = false;
    try {
      if (!ctx.matched && fallback?.(req, res)) {
        watched = true;
        res.on('close', () => endInFlight(ctx));
        return;
      }
      watched = true;
      inFlight.contexts.add(ctx);
      res.on('close', onRoutedClose);
      try {
        serveRequest(ctx, services, dispatch, onFailure)?.then(undefined, (error: unknown) => onFailure(ctx, error));
      } catch (error) {
        // Answered once the listener's turn is over, as a rejection would be: by then the parser has taken
        // in a body sent with the headers, so the answer need not close the connection.
        queueMicrotask(() => onFailure(ctx, error));
      }
    } catch (error) {
      const failure = (ctx.failure = fail(ctx, error));
      if (!watched) {
        res.on('close', () => endInFlight(ctx));
        // The auxiliary fallback threw: no routed close handler writes this answer's usage event.
        if (sink) res.once('close', () => writeUsage(sink, createUsageEvent(ctx, failure.status, performance.now() - ctx.startedAt, failure)));
      }
    }
  };
}
