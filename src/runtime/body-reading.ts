import type { Readable } from 'node:stream';
import { VendorAnswer } from './vendor-answer.ts';
import type { BodyReading, BodySink, VendorResponse } from './types.ts';

/**
 * A vendor answer's body as a {@link BodyReading}: the undici call itself (no stream), or, for an answer
 * whose body was rewrapped as a stream (e.g. a Responses id watch), a reading of that stream.
 */
export function openBody(response: VendorResponse): BodyReading {
  return response instanceof VendorAnswer ? response : new StreamReading(response.body);
}

/** Reads a stream into a sink: its data, end and error events, once each attached. */
class StreamReading implements BodyReading {
  private sink?: BodySink;

  constructor(private readonly stream: Readable) {}

  read(sink: BodySink): void {
    const started = this.sink !== undefined;
    this.sink = sink;
    if (started) return;
    const { stream } = this;
    stream.on('data', (chunk: Buffer) => this.sink!.onData(chunk));
    stream.on('end', () => this.sink!.onEnd());
    // The listener stays after the body is done: a late error of a stream nobody reads cannot crash the process.
    let failed = false;
    stream.on('error', (error) => {
      if (failed || stream.readableEnded) return;
      failed = true;
      this.sink!.onError(error);
    });
  }

  pause(): void {
    this.stream.pause();
  }

  resume(): void {
    this.stream.resume();
  }

  destroy(): void {
    if (!this.stream.destroyed) this.stream.destroy();
  }
}
