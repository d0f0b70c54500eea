/**
 * The translating OpHandler: client request -> canonical -> vendor request; vendor answer (JSON or
 * SSE, incrementally) -> canonical -> client answer. Fills the request's usage from the vendor's counts.
 */
import { once } from 'node:events';
import type { Style } from '../config/types.ts';
import { GatewayError, renderStreamError, toGatewayError } from '../errors.ts';
import { endStream, sendJson, startStream, writeStream } from '../runtime/respond.ts';
import type { OpCall, OpHandler, RequestContext, RuntimeVendor, VendorResponse } from '../runtime/types.ts';
import { readSseEvents } from '../sse/parse.ts';
import type { CanonicalRequest, CanonicalUsage, StreamEvent } from './canonical.ts';
import { getTotalTokens, mergeUsage } from './canonical.ts';
import type { ClientAdapter, ResponseMeta, StreamEncoder, VendorAdapter } from './adapter.ts';
import { createFieldPolicy } from './field-policy.ts';
import { createIdSuffix } from './helpers.ts';
import { createVendorGatewayError, readVendorError } from '../runtime/vendor-error.ts';

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

/** A client style's adapter and the vendor protocol's adapter joined into one handler. */
export function createTranslationHandler(style: Style, client: ClientAdapter, vendor: VendorAdapter, stream?: boolean): OpHandler {
  return async (call: OpCall) => {
    const { ctx } = call;
    const strict = call.model.chat.strict || ctx.key?.config.strict === true;
    const policy = createFieldPolicy(strict, client.fieldNames);
    const request = client.decodeRequest(call.body, { policy, stream });
    const wire = vendor.encodeRequest(request, { model: call.target.upstream, policy, defaultMaxTokens: call.model.chat.defaultMaxTokens });
    const response = await call.callVendor({
      method: 'POST',
      path: wire.path,
      body: JSON.stringify(wire.body),
      headers: { 'content-type': 'application/json', accept: request.stream ? 'text/event-stream' : 'application/json' },
    });
    if (response.status < 200 || response.status >= 300) throw await readVendorError(call.vendor, response);
    const headers: Record<string, string> = policy.dropped.length > 0 ? { 'x-gateway-dropped-fields': policy.dropped.join(', ') } : {};
    const model = ctx.modelId ?? call.model.id;
    if (!request.stream) return answerWhole(ctx, client, vendor, request, response, model, headers);
    return answerStream({ ctx, style, client, vendor, request, response, model, headers, runtimeVendor: call.vendor });
  };
}

/** Copies canonical usage into the request's usage (read by the core's usage event). */
function recordUsage(ctx: RequestContext, usage: CanonicalUsage): void {
  const target = ctx.usage;
  if (usage.inputTokens !== undefined) target.inputTokens = usage.inputTokens;
  if (usage.outputTokens !== undefined) target.outputTokens = usage.outputTokens;
  if (usage.inputTokens !== undefined || usage.outputTokens !== undefined || usage.totalTokens !== undefined) target.totalTokens = getTotalTokens(usage);
  if (usage.cachedTokens !== undefined) target.cachedTokens = usage.cachedTokens;
  if (usage.reasoningTokens !== undefined) target.reasoningTokens = usage.reasoningTokens;
}

function createMeta(id: string | undefined, model: string): ResponseMeta {
  return { id: id || createIdSuffix(), model, created: Math.floor(Date.now() / 1000) };
}

async function answerWhole(
  ctx: RequestContext, client: ClientAdapter, vendor: VendorAdapter, request: CanonicalRequest,
  response: VendorResponse, model: string, headers: Record<string, string>,
): Promise<void> {
  let body: unknown;
  try {
    body = await response.body.json();
  } catch (error) {
    throw new GatewayError(502, 'upstream_invalid_response', 'The vendor answered with a body that is not JSON.', { cause: error });
  }
  const answer = vendor.decodeResponse(body);
  recordUsage(ctx, answer.usage);
  sendJson(ctx, 200, client.encodeResponse(answer, createMeta(answer.id, model), request), headers);
}

interface StreamJob {
  ctx: RequestContext;
  style: Style;
  client: ClientAdapter;
  vendor: VendorAdapter;
  request: CanonicalRequest;
  response: VendorResponse;
  model: string;
  headers: Record<string, string>;
  runtimeVendor: RuntimeVendor;
}

/**
 * Streams the answer: every vendor read is decoded and re-encoded at once (headers go out with the
 * first bytes). A vendor error event, unreadable data or a stream that ends before the vendor's
 * completion marker fails the request: as an HTTP error while nothing was sent, else as the client
 * style's in-stream error event, so the client's SDK raises instead of seeing a silent truncation.
 */
async function answerStream(job: StreamJob): Promise<void> {
  const { ctx, vendor, response } = job;
  const decoder = vendor.createStreamDecoder();
  let encoder: StreamEncoder | undefined;
  let usage: CanonicalUsage = {};
  let stray = '';
  const write = (text: string): void => {
    if (!text) return;
    if (!ctx.res.headersSent) startStream(ctx, 200, { ...SSE_HEADERS, ...job.headers });
    writeStream(ctx, text);
  };
  const encode = (event: StreamEvent): void => {
    if (event.type === 'error') throw createVendorGatewayError(job.runtimeVendor, event.error);
    if (event.type === 'usage') {
      usage = mergeUsage(usage, event.usage);
      recordUsage(ctx, usage);
    }
    encoder ??= job.client.createStreamEncoder(createMeta(event.type === 'start' ? event.id : undefined, job.model), job.request);
    write(encoder.encode(event));
  };
  try {
    for await (const sse of readSseEvents(response.body, (text) => { stray = text; })) {
      for (const event of decoder.decode(sse)) encode(event);
      if (ctx.res.destroyed) return;
      if (ctx.res.writableNeedDrain) await once(ctx.res, 'drain', { signal: ctx.signal });
    }
    if (!decoder.done) throw readStrayError(job, stray);
    encoder ??= job.client.createStreamEncoder(createMeta(undefined, job.model), job.request);
    write(encoder.end());
    endStream(ctx);
  } catch (error) {
    const failure = error instanceof GatewayError || ctx.signal.aborted
      ? toGatewayError(error)
      : new GatewayError(502, 'upstream_stream_cut', 'The vendor stream broke off before the answer was complete.', { cause: error });
    if (!ctx.res.headersSent) throw ctx.signal.aborted ? error : failure;
    endStream(ctx, renderStreamError(job.style, failure, ctx.id));
  } finally {
    if (!response.body.destroyed) response.body.destroy();
  }
}

/** The error of a stream that ended unfinished: a JSON error body sent as the stream, or a cut. */
function readStrayError(job: StreamJob, stray: string): GatewayError {
  let body: unknown;
  try {
    body = stray ? JSON.parse(stray) : undefined;
  } catch {
    // not JSON
  }
  const root = Array.isArray(body) ? body[0] : body;
  if (typeof root === 'object' && root !== null && 'error' in root) {
    return createVendorGatewayError(job.runtimeVendor, job.vendor.decodeError(0, body));
  }
  return new GatewayError(502, 'upstream_stream_cut', 'The vendor stream ended before the answer was complete.');
}
