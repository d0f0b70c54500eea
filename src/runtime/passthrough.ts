import type { Readable } from 'node:stream';
import { GatewayError } from '../errors.ts';
import { isReadingFinishReasons } from './finish-reasons.ts';
import { getProtocolAdapter } from '../protocols/index.ts';
import type { PassthroughEndpoint, ProtocolAdapter } from '../protocols/types.ts';
import { rewriteFormField } from './multipart-form.ts';
import { markFirstByte } from './respond.ts';
import { listResponseHeaders } from './list-response-headers.ts';
import { pipeBody } from './pipe-body.ts';
import { openBody } from './body-reading.ts';
import { collectBody } from './collect-chunks.ts';
import { looksLikeJson } from './json-usage.ts';
import { StreamTap } from './stream-tap.ts';
import { VendorAnswer } from './vendor-answer.ts';
import { toVendorFailure } from './vendor-failure.ts';
import { readErrorBody, toVendorError } from './vendor-error.ts';
import type { PassthroughBody } from './request-body.ts';
import type { OpCall, OpHandler, RequestContext, VendorRequest, VendorResponse } from './types.ts';

type OutgoingBody = VendorRequest['body'];

const PARAM = /\{(\w+)\}/g;

function buildPath(endpoint: PassthroughEndpoint, call: OpCall): string {
  let path = endpoint.path.includes('{')
    ? endpoint.path.replace(PARAM, (_, name: string) => encodeURIComponent(name === 'model' ? call.target.upstream : (call.ctx.params[name] ?? '')))
    : endpoint.path;
  if (!call.ctx.rawQuery) return path;
  const query = new URLSearchParams(call.ctx.query);
  query.delete('key');
  const rest = query.toString();
  if (rest) path += `?${rest}`;
  return path;
}

function pickHeaders(ctx: RequestContext, adapter: ProtocolAdapter): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of adapter.requestHeaders) {
    const value = ctx.req.headers[name];
    if (typeof value === 'string') picked[name] = value;
  }
  return picked;
}

/** What {@link buildBody} and {@link buildUpload} send: the body, whether usage-only events are to be dropped, its form's type. */
interface OutgoingRequestBody {
  body: OutgoingBody;
  stripUsage: boolean;
  contentType?: string;
}

/**
 * An upload's body: streamed through unchanged when the vendor knows the model by the client's name, else
 * re-encoded with the vendor's name in its model field (`contentType`: the new form's boundary).
 */
async function buildUpload(endpoint: PassthroughEndpoint, call: OpCall<PassthroughBody | undefined>, upload: Readable): Promise<OutgoingRequestBody> {
  if (endpoint.model !== 'body' || call.model.id === call.target.upstream) return { body: upload, stripUsage: false };
  const form = await rewriteFormField(upload, call.ctx.req.headers['content-type']!, call.ctx.route.model.name, call.target.upstream);
  return { body: form.body, stripUsage: false, contentType: form.contentType };
}

/**
 * The body sent to the vendor (not an upload): the client's bytes unless the model name or a usage request
 * changes them. Synchronous: a JSON call costs no promise here.
 */
function buildBody(endpoint: PassthroughEndpoint, call: OpCall<PassthroughBody | undefined>, adapter: ProtocolAdapter): OutgoingRequestBody {
  if (!call.raw) return { body: undefined, stripUsage: false };
  if (endpoint.model !== 'body' || call.body?.model === call.target.upstream) return askForStreamUsage(call, adapter, call.body, call.raw);
  // Renamed: serialised once with the vendor's name, then the usage request spliced into those bytes.
  const renamed = { ...call.body, model: call.target.upstream };
  return askForStreamUsage(call, adapter, renamed, Buffer.from(JSON.stringify(renamed)));
}

/** `raw` (the bytes of `body`) as sent, with the adapter's request for stream usage when it makes one. */
function askForStreamUsage(call: OpCall, adapter: ProtocolAdapter, body: PassthroughBody | undefined, raw: Buffer): OutgoingRequestBody {
  const withUsage = adapter.askForStreamUsage?.(call.ctx.route.op, body, raw);
  return { body: withUsage ?? raw, stripUsage: withUsage !== undefined };
}

const MAX_JSON_BYTES = 8 * 1024 * 1024;

/**
 * Answers a vendor's 2xx JSON body after checking it is framed as JSON (garbage becomes 502); its usage
 * is read from the bytes only when asked for. Bodies above 8 MiB are piped instead. A body all there already
 * (a small answer arrives with its head) is answered at once, with no promise: a failure is thrown.
 */
function forwardJson(call: OpCall, response: VendorResponse, adapter: ProtocolAdapter): void | Promise<void> {
  const { ctx } = call;
  const reading = openBody(response);
  const whole = reading instanceof VendorAnswer ? reading.takeWhole(MAX_JSON_BYTES) : undefined;
  if (whole !== undefined) return sendJson(call, response, adapter, whole);
  return new Promise((resolve, reject) => {
    collectBody(reading, MAX_JSON_BYTES, (error, { chunks, size, ended }) => {
      if (error !== undefined) return reject(toVendorFailure(error, ctx, call.vendor));
      if (!ended) return resolve(pipeBody(call, response, reading, undefined, chunks));
      try {
        sendJson(call, response, adapter, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
      } catch (failure) {
        return reject(failure);
      }
      resolve();
    });
  });
}

/** Sends a whole JSON answer (502 thrown for a body not framed as JSON), its usage kept to be read when asked for. */
function sendJson(call: OpCall, response: VendorResponse, adapter: ProtocolAdapter, body: Buffer): void {
  const { ctx } = call;
  if (!looksLikeJson(body)) {
    throw new GatewayError(502, 'upstream_invalid_response', `Vendor "${call.vendor.config.name}" answered with a body that is not valid JSON.`);
  }
  markFirstByte(ctx);
  ctx.addAnswerUsage(body, adapter);
  ctx.res.writeHead(response.status, listResponseHeaders(ctx, response, body.length));
  ctx.res.end(body);
}

/**
 * Sends a vendor's 2xx answer to the client: JSON checked then sent, streams and bytes piped
 * (`stripUsage`: without the usage-only events the gateway asked for). No promise when a JSON answer was
 * sent at once (a failure is thrown then).
 */
export function pipeResponse(call: OpCall, response: VendorResponse, adapter: ProtocolAdapter, stripUsage = false): void | Promise<void> {
  const contentType = String(response.headers['content-type'] ?? '');
  if (contentType.includes('json')) return forwardJson(call, response, adapter);
  if (!contentType.startsWith('text/event-stream')) return pipeBody(call, response, openBody(response), undefined);
  const reading = openBody(response);
  // A vendor call's chunks are views of its socket reads, held by nobody else: the tap may cut events out in place.
  const owned = reading instanceof VendorAnswer;
  return pipeBody(call, response, reading, new StreamTap(adapter, call.ctx.usage, stripUsage, call.vendor.redactor, isReadingFinishReasons() ? call.ctx : undefined, owned));
}

/** Forwards an operation to a vendor of the caller's own protocol: original bytes out, vendor bytes back. */
export function createPassthrough(endpoint: PassthroughEndpoint): OpHandler<PassthroughBody | undefined> {
  return async (call) => {
    const adapter = getProtocolAdapter(call.vendor.config.protocol);
    const headers = pickHeaders(call.ctx, adapter);
    const { body, stripUsage, contentType } = call.upload ? await buildUpload(endpoint, call, call.upload) : buildBody(endpoint, call, adapter);
    if (contentType) headers['content-type'] = contentType;
    if (typeof body === 'string' || Buffer.isBuffer(body)) headers['content-length'] = String(Buffer.byteLength(body));
    const response = await call.callVendor({ method: endpoint.method, path: buildPath(endpoint, call), headers, body });
    if (response.status >= 400) {
      const { json } = await readErrorBody(response);
      throw toVendorError(call.vendor, response.status, json, response.headers);
    }
    if (endpoint.free) chargeNothing(call.ctx);
    const piping = pipeResponse(call, response, adapter, stripUsage);
    if (piping) await piping;
  };
}

/** Zero counts for a call the vendor does not charge (the estimate of an uncounted request is skipped). */
function chargeNothing(ctx: RequestContext): void {
  ctx.usage.inputTokens = 0;
  ctx.usage.outputTokens = 0;
  ctx.usage.totalTokens = 0;
}
