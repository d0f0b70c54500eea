import type { Readable } from 'node:stream';

/** What {@link collectChunks} read: the chunks, their size, and whether the stream ended. */
export interface Collected {
  chunks: Buffer[];
  size: number;
  /** False when reading stopped because `limit` was passed; the stream is then paused. */
  ended: boolean;
}

/**
 * Reads a stream's chunks until it ends or until more than `limit` bytes arrived (then pauses it and
 * resolves with `ended: false`). Rejects with the stream's error. Every listener is removed either way.
 * `limit: 0` reads exactly the first chunk.
 */
export function collectChunks(stream: Readable, limit: number): Promise<Collected> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size <= limit) return;
      detach();
      stream.pause();
      resolve({ chunks, size, ended: false });
    };
    const onEnd = () => {
      detach();
      resolve({ chunks, size, ended: true });
    };
    const onError = (error: unknown) => {
      detach();
      reject(error);
    };
    const detach = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}
