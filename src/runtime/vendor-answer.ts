import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { errors, util, type Dispatcher } from 'undici';
import { GatewayError } from '../errors.ts';
import { openAnswerDecoder, type AnswerDecoder, type DecodedSink } from './answer-decoder.ts';
import type { AbortSource } from './abort-source.ts';
import type { BodyReading, BodySink, RequestContext, RuntimeVendor, VendorBody, VendorResponse } from './types.ts';
import { createBodyStream, readWholeText } from './read-vendor-body.ts';
import { toVendorFailure } from './vendor-failure.ts';

/** Body bytes held for a reader that has not started yet; past this the vendor is paused. */
const HELD_BYTES = 64 * 1024;

const HEADERS = 0;
const BODY = 1;
const DONE = 2;

/**
 * One vendor call as undici's dispatch handler, and its answer: resolves with itself at the response's
 * head, then hands the body's chunks to one reader ({@link BodySink}: no stream, no event per chunk) or, for a
 * caller that asks for `body`, to a Readable made then. Chunks that arrive before the reader starts are held
 * (the vendor is paused past 64 KiB). A body in a content coding is decoded on its way ({@link AnswerDecoder}).
 * Shares the request's abort (the vendor's connection is closed), adds the call's time (dispatch to the body's
 * end) to `ctx.vendorMs`, and rejects with a GatewayError when no response arrives.
 */
export class VendorAnswer implements Dispatcher.DispatchHandler, VendorResponse, BodyReading, DecodedSink {
  status = 0;
  headers: Record<string, string | string[] | undefined> = {};
  private phase = HEADERS;
  private readonly sentAt = performance.now();
  private abortCall?: (reason?: Error) => void;
  private resumeCall?: () => void;
  private reason?: Error;
  private listening = false;
  private sink?: BodySink;
  private held?: Buffer[];
  private heldBytes = 0;
  private ended = false;
  private failure?: Error;
  private paused = false;
  private stream?: VendorBody;
  /** The decoder of a coded body: the vendor's chunks go through it. */
  private decoder?: AnswerDecoder;
  /** The decoder failed and said so: undici's error for the call it then aborts is not reported again. */
  private decodeFailed = false;
  /** The request's body when it is a stream (an upload): destroyed when the call fails, as undici's request() does. */
  upload?: Readable;

  constructor(
    private readonly ctx: RequestContext,
    private readonly vendor: RuntimeVendor,
    private readonly signal: AbortSignal | AbortSource,
    private readonly resolve: (answer: VendorResponse) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    if (signal.aborted) this.reason = readAbortReason(signal);
    else {
      this.listening = true;
      if ('addEventListener' in signal) signal.addEventListener('abort', this.onAbort, { once: true });
      else signal.on('abort', this.onAbort);
    }
  }

  private readonly onAbort = (): void => {
    this.listening = false;
    this.reason = readAbortReason(this.signal);
    this.abortCall?.(this.reason);
  };

  /** Ends the call's bookkeeping once: its time, and the abort listener. */
  private finish(): void {
    this.phase = DONE;
    this.ctx.vendorMs += performance.now() - this.sentAt;
    if (!this.listening) return;
    this.listening = false;
    const { signal } = this;
    if ('removeEventListener' in signal) signal.removeEventListener('abort', this.onAbort);
    else signal.removeListener('abort', this.onAbort);
  }

  onConnect(abort: (reason?: Error) => void): void {
    if (this.reason) abort(this.reason);
    else this.abortCall = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    if (statusCode < 200) return true;
    this.status = statusCode;
    this.headers = util.parseHeaders(rawHeaders);
    this.resumeCall = resume;
    this.phase = BODY;
    const coding = this.headers['content-encoding'];
    if (coding !== undefined && statusCode !== 204 && statusCode !== 304 && !this.openDecoder(coding)) return false;
    this.resolve(this);
    return true;
  }

  /** Reads the body through the decoder of its coding (its coded framing dropped); false, the call refused, when there is none. */
  private openDecoder(coding: string | string[]): boolean {
    const decoder = openAnswerDecoder(this.vendor.config.name, coding, this);
    if (decoder instanceof GatewayError) {
      this.finish();
      this.reject(decoder);
      this.abortCall?.(decoder);
      return false;
    }
    if (decoder === undefined) return true;
    this.decoder = decoder;
    delete this.headers['content-encoding'];
    delete this.headers['content-length'];
    return true;
  }

  onData(chunk: Buffer): boolean {
    return this.decoder === undefined ? this.accept(chunk) : this.decoder.write(chunk);
  }

  /** A chunk of the body as the reader gets it; false when the vendor is to pause. */
  private accept(chunk: Buffer): boolean {
    if (this.sink && !this.paused && this.held === undefined) {
      this.sink.onData(chunk);
      return !this.paused;
    }
    (this.held ??= []).push(chunk);
    this.heldBytes += chunk.length;
    if (!this.sink && this.heldBytes < HELD_BYTES) return true;
    this.paused = true;
    return false;
  }

  onComplete(): void {
    if (this.decoder === undefined) return this.complete();
    // The call is over (its connection may serve another): nothing is left to abort or resume while the rest is decoded.
    this.abortCall = undefined;
    this.resumeCall = undefined;
    this.decoder.end();
  }

  private complete(): void {
    this.finish();
    if (this.sink && this.held === undefined) this.sink.onEnd();
    else this.ended = true;
  }

  onDecoded(chunk: Buffer): boolean {
    return this.accept(chunk);
  }

  onDecodedEnd(): void {
    this.complete();
  }

  onDecodeError(error: GatewayError): void {
    this.decodeFailed = true;
    const abort = this.abortCall;
    this.abortCall = undefined;
    this.fail(error);
    abort?.(error);
  }

  onDecoderDrain(): void {
    if (!this.paused && this.phase === BODY) this.resumeCall?.();
  }

  onError(error: Error): void {
    if (this.decodeFailed) return;
    this.decoder?.destroy();
    this.fail(error);
  }

  /** The call failed: before its head, the answer's promise rejects; after, the reader gets the error. */
  private fail(error: Error): void {
    const before = this.phase === HEADERS;
    if (this.phase !== DONE) this.finish();
    if (this.upload && !this.upload.destroyed) {
      this.upload.on('error', ignore);
      this.upload.destroy(error);
    }
    if (before) return this.reject(toVendorFailure(error, this.ctx, this.vendor));
    if (!this.sink) {
      this.failure = error;
      return;
    }
    this.held = undefined;
    try {
      this.sink.onError(error);
    } catch (thrown) {
      // undici would report a throw here on the pool as an 'error' event.
      process.emitWarning(thrown as Error);
    }
  }

  /** Starts (or moves) the body's reading to `sink`: the chunks held so far first, then the rest as it comes. */
  read(sink: BodySink): void {
    this.sink = sink;
    if (this.paused) this.resume();
    else this.deliverHeld();
  }

  /**
   * The whole body when it has all arrived and no reader has started (a small answer comes with its head):
   * taken at once, its chunks joined, as a reading of it to its end would take them; undefined otherwise (not
   * all there yet, failed, read already, or over `limit` bytes), and nothing changes.
   */
  takeWhole(limit: number): Buffer | undefined {
    if (this.sink || !this.ended || this.heldBytes > limit) return undefined;
    const held = this.held;
    this.sink = TAKEN;
    this.held = undefined;
    this.heldBytes = 0;
    this.ended = false;
    this.paused = false;
    if (held === undefined) return EMPTY;
    return held.length === 1 ? held[0] : Buffer.concat(held);
  }

  /** Hands the held chunks, then a held end or failure, to the sink, until it pauses. */
  private deliverHeld(): void {
    while (this.held !== undefined && !this.paused) {
      const chunk = this.held.shift()!;
      this.heldBytes -= chunk.length;
      if (this.held.length === 0) this.held = undefined;
      this.sink!.onData(chunk);
    }
    if (this.held !== undefined || this.paused) return;
    if (this.ended) {
      this.ended = false;
      this.sink!.onEnd();
    } else if (this.failure) {
      const failure = this.failure;
      this.failure = undefined;
      this.sink!.onError(failure);
    }
  }

  /** Stops the vendor's body after the chunk being read (undici pauses its parser). */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.deliverHeld();
    if (this.paused) return;
    // A coded body's vendor is also resumed by its decoder's drain.
    this.decoder?.resume();
    if (this.phase === BODY) this.resumeCall?.();
  }

  /** Aborts the call unless its body ended: the vendor sees its connection close. */
  destroy(): void {
    this.decoder?.destroy();
    if (this.phase === DONE) return;
    // Nothing more is read, should undici's parser call back before it sees its socket destroyed.
    this.paused = true;
    this.abortCall?.(new errors.RequestAbortedError());
  }

  /** The body as a Readable with `json()` and `text()`, for the callers that stream it ({@link createBodyStream}); made on first use. */
  get body(): VendorBody {
    return (this.stream ??= createBodyStream(this, () => this.readText()));
  }

  /** The whole body as text ({@link readWholeText}): a 502 past 128 MiB. */
  readText(): Promise<string> {
    return readWholeText(this, this.vendor.config.name);
  }
}

const ignore = (): void => undefined;

const EMPTY = Buffer.alloc(0);

/** The reader of a body taken whole ({@link VendorAnswer.takeWhole}): nothing more comes to it. */
const TAKEN: BodySink = { onData: ignore, onEnd: ignore, onError: ignore };

function readAbortReason(signal: AbortSignal | AbortSource): Error {
  return (signal.reason as Error | undefined) ?? new errors.RequestAbortedError();
}
