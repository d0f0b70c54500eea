/**
 * Streams a translated answer: the vendor reads of one tick are parsed, decoded to canonical events,
 * re-encoded in the client's style and written as one piece, synchronously (no per-event promise).
 * Backpressure pauses the vendor body until the client drains.
 */
import type { Style } from '../../config/types.ts';
import { GatewayError, toGatewayError } from '../../errors.ts';
import { renderStreamError } from '../../protocols/render-error.ts';
import { endStream, startStream, writeStream } from '../respond.ts';
import type { BodyReading, BodySink, RequestContext, RuntimeVendor, VendorResponse } from '../types.ts';
import { createSseParser, type SseEvent, type SseParser } from '../../sse/parse.ts';
import type { ClientAdapter, ResponseMeta, StreamDecoder, StreamEncoder, VendorAdapter } from '../../translate/adapter.ts';
import type { CanonicalRequest, CanonicalUsage, StreamEvent } from '../../translate/canonical.ts';
import { mergeUsage } from '../../translate/canonical.ts';
import { createVendorGatewayError } from '../vendor-error.ts';
import { openBody } from '../body-reading.ts';

const SSE_HEADERS: Record<string, string> = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

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
  return new Promise<void>((resolve, reject) => new TranslatedStream(job, resolve, reject).start());
}

/** Runs a stream's pending tick (process.nextTick's callback: a module function, not a closure per stream). */
function runTick(stream: TranslatedStream): void {
  stream.tick();
}

/**
 * One translated stream: the body's sink, its parser, decoder and encoder, the text not yet written.
 * A class, not a dozen closures over the call's variables: a stream's state is one object (closures
 * and their contexts were ~1.6 KB of the allocations of a bench stream).
 */
class TranslatedStream implements BodySink {
  private readonly reading: BodyReading;
  private readonly decoder: StreamDecoder;
  private readonly parser: SseParser;
  private encoder: StreamEncoder | undefined;
  private meta: ResponseMeta | undefined;
  private usage: CanonicalUsage = {};
  private out = '';
  // The reads of one tick (a vendor's network read often holds many small chunks, an event each) are
  // parsed together and leave in one write: each parse call and each write of a chunked response has a
  // cost of its own (a write is four socket writes). An answer whose end comes in the same tick as its
  // reads (a short answer: one vendor read) is parsed and sent at the end, in one write with the end.
  private readonly reads: Buffer[] = [];
  private readBytes = 0;
  private ticking = false;
  private settled = false;
  private resumeReading: (() => void) | undefined;

  constructor(
    private readonly job: StreamJob,
    private readonly resolve: () => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.reading = openBody(job.response);
    this.decoder = job.vendor.createStreamDecoder();
    const onEvent = (sse: SseEvent): void => this.onEvent(sse);
    this.parser = job.vendor.createStreamParser ? job.vendor.createStreamParser(onEvent) : createSseParser(onEvent);
  }

  start(): void {
    this.job.ctx.res.on('close', () => this.settle());
    // The body's reads come straight from the vendor call (no stream in between).
    this.reading.read(this);
  }

  onData(chunk: Buffer): void {
    if (this.settled) return;
    this.reads.push(chunk);
    this.readBytes += chunk.length;
    if (!this.ticking) {
      this.ticking = true;
      process.nextTick(runTick, this);
    }
  }

  onEnd(): void {
    if (!this.settled) void this.end();
  }

  onError(error: unknown): void {
    this.settle(error, true);
  }

  private onEvent(sse: SseEvent): void {
    // An index, not for...of: an iterator and its results per SSE event showed in the allocation profile.
    const events = this.decoder.decode(sse);
    for (let at = 0; at < events.length; at++) this.encode(events[at]);
  }

  private encode(event: StreamEvent): void {
    const { job } = this;
    if (event.type === 'error') throw createVendorGatewayError(job.runtimeVendor, event.error);
    if (event.type === 'usage') {
      this.usage = mergeUsage(this.usage, event.usage);
      job.recordUsage(this.usage);
    } else if (event.type === 'finish') (job.ctx.finishReasons ??= []).push(event.reason);
    const encoder = (this.encoder ??= job.client.createStreamEncoder((this.meta = job.createMeta(event.type === 'start' ? event.id : undefined)), job.request));
    this.out += encoder.encode(event);
  }

  private parseReads(): void {
    const { reads } = this;
    if (reads.length === 0) return;
    const chunk = reads.length === 1 ? reads[0] : Buffer.concat(reads, this.readBytes);
    reads.length = 0;
    this.readBytes = 0;
    this.parser.feed(chunk);
  }

  /**
   * Writes the pending text. `last`: it leaves with the end of the response (one write, not a write and
   * an end; a short answer arrives in one vendor read, so this is often the whole stream).
   */
  private flush(last = false): void {
    const { ctx } = this.job;
    const piece = this.out;
    this.out = '';
    if (piece) {
      if (!ctx.res.headersSent) startStream(ctx, 200, readStreamHeaders(this.job.headers));
      ctx.streamedBytes += piece.length;
    }
    if (last) endStream(ctx, piece || undefined);
    else if (piece) writeStream(ctx, piece);
  }

  tick(): void {
    this.ticking = false;
    if (this.settled) return;
    try {
      this.parseReads();
      this.flush();
    } catch (error) {
      return this.settle(error);
    }
    const { res } = this.job.ctx;
    if (res.writableNeedDrain) {
      this.reading.pause();
      res.once('drain', (this.resumeReading ??= () => this.reading.resume()));
    }
  }

  private async end(): Promise<void> {
    const { job } = this;
    try {
      this.parseReads();
      this.parser.end();
      if (!this.decoder.done) throw readStrayError(job, this.parser.stray);
      const encoder = (this.encoder ??= job.client.createStreamEncoder((this.meta = job.createMeta(undefined)), job.request));
      if (job.keep && encoder.result) {
        await job.keep(encoder.result(), this.meta!);
        if (this.settled) return;
      }
      this.out += encoder.end();
      this.flush(true);
      this.settle();
    } catch (error) {
      this.settle(error);
    }
  }

  /**
   * Ends the stream, with `error` when it failed. `fromBody`: the error came from reading the vendor's body
   * (a reset, a socket error), so it is the vendor's stream that broke; anything else thrown that is not a
   * GatewayError (the vendor's bad data is one) is the gateway's own failure, an internal error.
   */
  private settle(error?: unknown, fromBody = false): void {
    if (this.settled) return;
    this.settled = true;
    this.reading.destroy();
    if (error === undefined) return this.resolve();
    const { ctx, style } = this.job;
    const aborted = ctx.abortSource.aborted;
    const failure = error instanceof GatewayError || aborted || !fromBody
      ? toGatewayError(error)
      : new GatewayError(502, 'upstream_stream_failed', 'The vendor stream broke off before the answer was complete.', { cause: error });
    if (!ctx.res.headersSent) return this.reject(aborted ? error : failure);
    ctx.streamFailure = failure;
    endStream(ctx, renderStreamError(style, failure, ctx.id));
    this.resolve();
  }
}

/** The stream's response headers: the SSE ones, then the call's own (the constant itself when there are none). */
function readStreamHeaders(headers: Record<string, string>): Record<string, string> {
  for (const _name in headers) return { ...SSE_HEADERS, ...headers };
  return SSE_HEADERS;
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
