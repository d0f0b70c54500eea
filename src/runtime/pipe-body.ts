import { GatewayError } from '../errors.ts';
import { renderStreamError } from '../protocols/render-error.ts';
import { listResponseHeaders } from './list-response-headers.ts';
import { markFirstByte } from './respond.ts';
import type { StreamTap } from './stream-tap.ts';
import { toVendorFailure } from './vendor-failure.ts';
import type { BodyReading, BodySink, OpCall, VendorResponse } from './types.ts';

/** Pieces of a piped body are gathered into one write up to this size (or the end of the tick). */
const COALESCE_BYTES = 64 * 1024;

/**
 * Pumps a vendor body to the client as it arrives (SSE, audio, video), through an SSE tap that reads
 * usage (and may drop usage-only events), with backpressure. The client's headers go out with the first
 * body byte: until then a failure rejects, so the attempt is still retryable. `prefix`: chunks already
 * read from the body.
 */
export function pipeBody(call: OpCall, response: VendorResponse, reading: BodyReading, tap: StreamTap | undefined, prefix: Buffer[] = []): Promise<void> {
  return new Promise<void>((resolve, reject) => new BodyPipe(call, response, reading, tap, resolve, reject).run(prefix));
}

/**
 * One piped body: the sink its reading feeds, and the state of its writes (one object per request, no
 * closure per step).
 */
class BodyPipe implements BodySink {
  private started = false;
  private settled = false;
  private ended = false;
  private waiting = false;
  // Small pieces of one tick (a vendor read often holds many events) leave in one write: each write of
  // a chunked response costs four socket writes of its own.
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private flushing = false;
  // Pieces handed over while `read` runs (the chunks that arrived before it, often the whole answer) leave
  // when it returns, or with the end: no tick is scheduled for them.
  private delivering = true;

  constructor(
    private readonly call: OpCall,
    private readonly response: VendorResponse,
    private readonly reading: BodyReading,
    private readonly tap: StreamTap | undefined,
    private readonly resolve: () => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  run(prefix: Buffer[]): void {
    this.call.ctx.res.on('close', () => {
      if (!this.ended) this.reading.destroy();
      this.settle();
    });
    for (const chunk of prefix) this.onData(chunk);
    this.reading.read(this);
    this.delivering = false;
    if (!this.ended) this.flush();
  }

  private settle(error?: unknown): void {
    if (this.settled) return;
    this.settled = true;
    if (error === undefined) return this.resolve();
    this.reading.destroy();
    this.reject(error);
  }

  /** Commits the attempt and sends the headers; false (and the request failed) when it may not. */
  private start(): boolean {
    const { ctx } = this.call;
    try {
      markFirstByte(ctx);
    } catch (error) {
      this.settle(error);
      return false;
    }
    this.started = true;
    // Through a tap the bytes may change (events dropped, secrets removed): the vendor's length would not frame them.
    ctx.res.writeHead(this.response.status, listResponseHeaders(ctx, this.response, this.tap ? null : undefined));
    return true;
  }

  /** The pending pieces as one (undefined when none, or when the client can take no more). */
  private take(): Buffer | undefined {
    const { res } = this.call.ctx;
    if (this.pending.length === 0 || res.destroyed || res.writableEnded) return undefined;
    const out = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    return out;
  }

  flush(): void {
    this.flushing = false;
    const out = this.take();
    const { res } = this.call.ctx;
    if (out !== undefined && !res.write(out) && !this.waiting) {
      this.waiting = true;
      this.reading.pause();
      res.once('drain', () => {
        this.waiting = false;
        this.reading.resume();
      });
    }
  }

  onData(chunk: Buffer): void {
    if (this.settled || (!this.started && !this.start())) return;
    const { tap } = this;
    const out = tap ? tap.push(chunk) : chunk;
    if (out.length === 0) return;
    if (tap) this.call.ctx.streamedBytes += out.length;
    this.pending.push(out);
    this.pendingBytes += out.length;
    if (this.pendingBytes >= COALESCE_BYTES) this.flush();
    else if (!this.flushing && !this.delivering) {
      this.flushing = true;
      process.nextTick(flushPipe, this);
    }
  }

  onEnd(): void {
    this.ended = true;
    if (this.settled || (!this.started && !this.start())) return;
    // The last pieces leave with the end of the response: one write, not a write and an end.
    const rest = this.tap?.end();
    if (rest?.length) {
      this.pending.push(rest);
      this.pendingBytes += rest.length;
    }
    const out = this.take();
    const { res } = this.call.ctx;
    if (out === undefined) res.end();
    else res.end(out);
    this.settle();
  }

  onError(error: any): void {
    this.ended = true;
    if (this.settled) return;
    const { ctx } = this.call;
    if (!this.started) return this.settle(toVendorFailure(error, ctx, this.call.vendor));
    this.flush();
    const { res } = ctx;
    if (!res.writableEnded && !res.destroyed && this.tap) {
      const timeout = error?.code === 'UND_ERR_BODY_TIMEOUT';
      const failure = timeout
        ? new GatewayError(504, 'upstream_timeout', 'The vendor stream went silent for too long.')
        : new GatewayError(502, 'upstream_stream_failed', 'The vendor stream ended with an error.');
      ctx.streamFailure = failure;
      res.end(renderStreamError(ctx.style, failure, ctx.id));
    } else res.destroy();
    this.settle();
  }
}

/** Sends a pipe's pending pieces at the end of the tick (process.nextTick's argument form: no closure). */
function flushPipe(pipe: BodyPipe): void {
  pipe.flush();
}
