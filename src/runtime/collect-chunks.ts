import type { Readable } from 'node:stream';
import type { BodyReading } from './types.ts';

/** What {@link readChunks} read: the chunks, their size, and whether the stream ended. */
export interface Collected {
  chunks: Buffer[];
  size: number;
  /** False when reading stopped because `limit` was passed; the stream is then paused. */
  ended: boolean;
}

/**
 * Reads a stream's chunks until it ends or until more than `limit` bytes arrived (then detaches, pauses
 * the stream and reports `ended: false`), and calls `done` once: with the stream's error, or with what
 * was read. `limit: 0` reads exactly the first chunk. The error listener stays, so a late error of a
 * stream nobody reads any more cannot crash the process. Callback-based: the hot path's body reads cost
 * no promise of their own. The returned function stops reading early (detaches and pauses; `done` is then
 * never called).
 */
export function readChunks(stream: Readable, limit: number, done: (error: unknown, collected?: Collected) => void): () => void {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size <= limit) return;
    settled = true;
    stream.off('data', onData);
    stream.off('end', onEnd);
    stream.pause();
    done(undefined, { chunks, size, ended: false });
  };
  const onEnd = () => {
    settled = true;
    done(undefined, { chunks, size, ended: true });
  };
  stream.on('data', onData);
  stream.on('end', onEnd);
  stream.on('error', (error: unknown) => {
    if (settled) return;
    settled = true;
    stream.off('data', onData);
    stream.off('end', onEnd);
    done(error);
  });
  return () => {
    if (settled) return;
    settled = true;
    stream.off('data', onData);
    stream.off('end', onEnd);
    stream.pause();
  };
}

/**
 * Collects a body's chunks until it ends or until more than `limit` bytes arrived, and calls `done` once:
 * with what was read (`ended: false` when the limit was passed: the caller then destroys the reading or moves
 * it to another sink), or with the body's error and what arrived before it.
 */
export function collectBody(reading: BodyReading, limit: number, done: (error: unknown, collected: Collected) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  reading.read({
    onData(chunk) {
      if (settled) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size <= limit) return;
      settled = true;
      done(undefined, { chunks, size, ended: false });
    },
    onEnd() {
      if (settled) return;
      settled = true;
      done(undefined, { chunks, size, ended: true });
    },
    onError(error) {
      if (settled) return;
      settled = true;
      done(error, { chunks, size, ended: false });
    },
  });
}
