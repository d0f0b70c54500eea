import type { Readable } from 'node:stream';

/** Pull-based access to a Readable: one chunk per call, nothing read ahead (backpressure stays with the source). */
export interface ChunkReader {
  /** The next chunk in order, or null at the end; rejects when the source errors or closes early. */
  next(): Promise<Buffer | null>;
  /** Stops reading and rejects a pending `next()`; the source itself is left alone (not destroyed). */
  release(reason?: unknown): void;
}

const RELEASED = new Error('The chunk reader was released.');

/**
 * Reads `source` chunk by chunk in paused mode. Unlike an async iterator it can be handed from one
 * consumer to the next (the multipart sniffer, then the replay body) and released without destroying
 * the source, so the caller can still answer on the same connection.
 */
export function createChunkReader(source: Readable): ChunkReader {
  let failure: unknown;
  let ended = false;
  let released = false;
  let waiter: { resolve(): void; reject(error: unknown): void } | undefined;

  const wake = () => {
    const current = waiter;
    waiter = undefined;
    current?.resolve();
  };
  const onEnd = () => {
    ended = true;
    wake();
  };
  const onError = (error: unknown) => {
    failure ??= error;
    wake();
  };
  const onClose = () => {
    if (!source.readableEnded) failure ??= prematureClose();
    wake();
  };
  source.on('readable', wake);
  source.on('end', onEnd);
  source.on('error', onError);
  source.on('close', onClose);
  if (source.destroyed && !source.readableEnded) failure = prematureClose();

  return {
    async next() {
      for (;;) {
        if (released) throw RELEASED;
        const chunk: Buffer | null = source.read();
        if (chunk !== null) return chunk;
        if (failure !== undefined) throw failure;
        if (ended || source.readableEnded) return null;
        await new Promise<void>((resolve, reject) => {
          waiter = { resolve, reject };
        });
      }
    },
    release(reason) {
      if (released) return;
      released = true;
      source.off('readable', wake);
      source.off('end', onEnd);
      source.off('close', onClose);
      // The 'error' listener stays: a source that fails later must not crash the process.
      const current = waiter;
      waiter = undefined;
      current?.reject(reason ?? RELEASED);
    },
  };
}

function prematureClose(): Error {
  return Object.assign(new Error('The stream closed before it ended.'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}
