/**
 * Streams a translated answer: the vendor reads of one tick are parsed, decoded to canonical events,
 * re-encoded in the client's style and written as one piece, synchronously (no per-event promise).
 * Backpressure pauses the vendor body until the client drains.
 */
import type { Style } from '../../config/types.ts';
import { GatewayError, toGatewayError } from '../../errors.ts';
import { renderStreamError } from '../../protocols/render-error.ts';
import { endStream, startStream, writeStream } from '../respond.ts';
import type { RequestContext, RuntimeVendor, VendorResponse } from '../types.ts';
import { createSseParser, type SseEvent } from '../../sse/parse.ts';
import type { ClientAdapter, ResponseMeta, StreamEncoder, VendorAdapter } from '../../translate/adapter.ts';
import type { CanonicalRequest, CanonicalUsage, StreamEvent } from '../../translate/canonical.ts';
import { mergeUsage } from '../../translate/canonical.ts';
import { createVendorGatewayError } from '../vendor-error.ts';
import { openBody } from '../body-reading.ts';

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

/** Everything one translated stream needs. */
export interface StreamJob {
  ctx: RequestContext;
  style: Style;
  client: ClientAdapter;
  vendor: VendorAdapter;
  request: CanonicalRequest;
  response: VendorResponse;
  model: string;
  headers: Record<string, string>;
  runtimeVendor: RuntimeVendor;
  createMeta(id: string | undefined): ResponseMeta;
  recordUsage(usage: CanonicalUsage): void;
  /** Keeps the whole answer (the encoder's `result()`) before the closing events are written. */
  keep?(answer: Record<string, unknown>, meta: ResponseMeta): Promise<void>;
}

/**
 * Streams the answer (headers go out with the first bytes). A vendor error event, unreadable data or a
 * stream that ends before the vendor's completion marker fails the request: as an HTTP error (a rejection,
 * so the attempt may still be retried) while nothing was sent, else as the client style's in-stream error
 * event, so the client's SDK raises instead of seeing a silent truncation.
 */
export function answerStream(job: StreamJob): Promise<void> {
  const { ctx } = job;
  const { res } = ctx;
  const reading = openBody(job.response);
  const decoder = job.vendor.createStreamDecoder();
  let encoder: StreamEncoder | undefined;
  let meta: ResponseMeta | undefined;
  let usage: CanonicalUsage = {};
  let out = '';
  const encode = (event: StreamEvent): void => {
    if (event.type === 'error') throw createVendorGatewayError(job.runtimeVendor, event.error);
    if (event.type === 'usage') {
      usage = mergeUsage(usage, event.usage);
      job.recordUsage(usage);
    } else if (event.type === 'finish') (ctx.finishReasons ??= []).push(event.reason);
    encoder ??= job.client.createStreamEncoder((meta = job.createMeta(event.type === 'start' ? event.id : undefined)), job.request);
    out += encoder.encode(event);
  };
  const onEvent = (sse: SseEvent): void => {
    // An index, not for...of: an iterator and its results per SSE event showed in the allocation profile.
    const events = decoder.decode(sse);
    for (let at = 0; at < events.length; at++) encode(events[at]);
  };
  const parser = job.vendor.createStreamParser ? job.vendor.createStreamParser(onEvent) : createSseParser(onEvent);
  // `last`: the pending piece leaves with the end of the response (one write, not a write and an end; a
  // short answer arrives in one vendor read, so this is often the whole stream).
  const flush = (last = false): void => {
    const piece = out;
    out = '';
    if (piece) {
      if (!res.headersSent) startStream(ctx, 200, { ...SSE_HEADERS, ...job.headers });
      ctx.streamedBytes += piece.length;
    }
    if (last) endStream(ctx, piece || undefined);
    else if (piece) writeStream(ctx, piece);
  };
  // The reads of one tick (a vendor's network read often holds many small chunks, an event each) are
  // parsed together and leave in one write: each parse call and each write of a chunked response has a
  // cost of its own (a write is four socket writes). An answer whose end comes in the same tick as its
  // reads (a short answer: one vendor read) is parsed and sent at the end, in one write with the end.
  let reads: Buffer[] = [];
  let readBytes = 0;
  const parseReads = (): void => {
    if (reads.length === 0) return;
    const chunk = reads.length === 1 ? reads[0] : Buffer.concat(reads, readBytes);
    reads = [];
    readBytes = 0;
    parser.feed(chunk);
  };
  let ticking = false;

  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      reading.destroy();
      if (error === undefined) return resolve();
      const aborted = ctx.abortSource.aborted;
      const failure = error instanceof GatewayError || aborted
        ? toGatewayError(error)
        : new GatewayError(502, 'upstream_stream_failed', 'The vendor stream broke off before the answer was complete.', { cause: error });
      if (!res.headersSent) return reject(aborted ? error : failure);
      ctx.streamFailure = failure;
      endStream(ctx, renderStreamError(job.style, failure, ctx.id));
      resolve();
    };
    const resume = () => reading.resume();
    const tick = (): void => {
      ticking = false;
      if (settled) return;
      try {
        parseReads();
        flush();
      } catch (error) {
        return settle(error);
      }
      if (res.writableNeedDrain) {
        reading.pause();
        res.once('drain', resume);
      }
    };
    const end = async (): Promise<void> => {
      try {
        parseReads();
        parser.end();
        if (!decoder.done) throw readStrayError(job, parser.stray);
        encoder ??= job.client.createStreamEncoder((meta = job.createMeta(undefined)), job.request);
        if (job.keep && encoder.result) {
          await job.keep(encoder.result(), meta!);
          if (settled) return;
        }
        out += encoder.end();
        flush(true);
        settle();
      } catch (error) {
        settle(error);
      }
    };
    res.on('close', () => settle());
    // The body's reads come straight from the vendor call (no stream in between).
    reading.read({
      onData(chunk) {
        if (settled) return;
        reads.push(chunk);
        readBytes += chunk.length;
        if (!ticking) {
          ticking = true;
          process.nextTick(tick);
        }
      },
      onEnd() {
        if (!settled) void end();
      },
      onError: settle,
    });
  });
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
  return new GatewayError(502, 'upstream_stream_failed', 'The vendor stream ended before the answer was complete.');
}
