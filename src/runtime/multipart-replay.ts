import { createReadStream, type ReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { createChunkReader, type ChunkReader } from './multipart-chunks.ts';

/** The pieces a replay body is made of, in order. */
export interface ReplayParts {
  /** Bytes kept in memory (first). */
  memory: Buffer[];
  /** A sealed temporary file with the bytes that followed (second), if any. */
  spoolPath?: string;
  /** The rest of the live upload (last); released, not destroyed, when the body is destroyed. */
  live: ChunkReader;
  /** Called once when the spooled file was read whole, and again when the body closes. */
  onSpoolDone(): void;
}

const SPOOL_READ_CHUNK = 64 * 1024;

/**
 * A Readable that replays `memory`, then the spooled file, then the live upload, exactly in order.
 * It reads one chunk per `_read`, so a slow consumer pauses the live upload (backpressure).
 */
class ReplayBody extends Readable {
  private readonly parts: ReplayParts;
  private next = 0;
  private file: ReadStream | undefined;
  private fileReader: ChunkReader | undefined;
  private fileDone: boolean;

  constructor(parts: ReplayParts) {
    super();
    this.parts = parts;
    this.fileDone = parts.spoolPath === undefined;
  }

  override _read(): void {
    this.pull().then(
      (chunk) => {
        if (!this.destroyed) this.push(chunk);
      },
      (error) => this.destroy(error),
    );
  }

  private async pull(): Promise<Buffer | null> {
    const { memory } = this.parts;
    if (this.next < memory.length) {
      const chunk = memory[this.next];
      memory[this.next++] = EMPTY; // let the replayed prefix be collected
      return chunk;
    }
    if (!this.fileDone) {
      const chunk = await this.readSpool();
      if (chunk !== null) return chunk;
    }
    return this.parts.live.next();
  }

  private async readSpool(): Promise<Buffer | null> {
    if (this.fileReader === undefined) {
      this.file = createReadStream(this.parts.spoolPath!, { highWaterMark: SPOOL_READ_CHUNK });
      this.fileReader = createChunkReader(this.file);
    }
    const chunk = await this.fileReader.next();
    if (chunk !== null) return chunk;
    this.fileDone = true;
    this.fileReader.release();
    this.parts.onSpoolDone();
    return null;
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.parts.live.release(error ?? undefined);
    this.fileReader?.release();
    this.file?.destroy();
    this.parts.onSpoolDone();
    callback(error);
  }
}

const EMPTY = Buffer.alloc(0);

/** Creates the body that replays an upload byte-identical: kept prefix first, then the live rest. */
export function createReplayBody(parts: ReplayParts): Readable {
  return new ReplayBody(parts);
}
