import fs from 'node:fs';

/** Where the log's lines go: one line at a time, and the flushes of what is still pending. */
export interface LineSink {
  write(line: string): void;
  flush(cb?: (error?: Error) => void): void;
  flushSync(): void;
}

/** Lines are gathered until they hold this many bytes, then written in one write (about 60 request lines). */
const BATCH_BYTES = 32 * 1024;
/** The buffer the lines are encoded into: a batch, and room for one more line past it. */
const BUFFER_BYTES = 64 * 1024;
/** A line that might take more bytes than this (3 per UTF-16 unit at most) is written alone, past the buffer. */
const LONGEST_BUFFERED = (BUFFER_BYTES - BATCH_BYTES) / 3;

/**
 * Standard output on a regular file: each line is encoded (UTF-8) into one reused 64 KB buffer as it is logged,
 * and the buffer is written by one `writeSync` once it holds 32 KB (a write to a regular file is never
 * interleaved with another process's, so no pipe's 4 KB bound applies). A line's string is garbage as soon as it
 * is logged: held until its batch was written, the strings of a batch (and the parts they were built of)
 * outlived the young generation's collections and were promoted, to be freed only by a full collection. A file
 * never answers EAGAIN; a short write (a full disk, a file size limit) is followed by the rest until it is done
 * or a write throws.
 */
export function openFileLines(fd: number): LineSink {
  const buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  let used = 0;
  const writeAll = (bytes: Buffer, end: number): void => {
    for (let done = 0; done < end; ) done += fs.writeSync(fd, bytes, done, end - done);
  };
  const writeBuffer = (): void => {
    const end = used;
    used = 0;
    if (end > 0) writeAll(buffer, end);
  };
  return {
    write(line) {
      if (line.length > LONGEST_BUFFERED) {
        writeBuffer();
        const bytes = Buffer.from(line);
        writeAll(bytes, bytes.length);
        return;
      }
      used += buffer.write(line, used);
      if (used >= BATCH_BYTES) writeBuffer();
    },
    flush(cb) {
      writeBuffer();
      if (cb) process.nextTick(cb);
    },
    flushSync: writeBuffer,
  };
}
