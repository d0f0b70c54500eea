import { randomUUID } from 'node:crypto';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the bytes of an upload that arrive before its model field are kept until they are replayed. */
export interface Spool {
  /** The first bytes, kept in memory (at most `memoryBytes` in total). */
  readonly memory: Buffer[];
  /** The temporary file holding the bytes after `memory`, once spooling began. */
  readonly path: string | undefined;
  /** Keeps `chunk` after everything appended before; resolves once it is safe to append the next one. */
  append(chunk: Buffer): Promise<void>;
  /** Closes the temporary file for writing so it can be replayed. */
  seal(): Promise<void>;
  /** Removes the temporary file (idempotent, never rejects). */
  cleanup(): Promise<void>;
}

/** Options of {@link createSpool}. */
export interface SpoolOptions {
  memoryBytes: number;
  tmpDir?: string;
}

/**
 * Creates a spool that keeps up to `memoryBytes` in memory and writes the rest, in order, to a private
 * temporary file (mode 0600, created exclusively) in `tmpDir` (default: the OS temp directory).
 */
export function createSpool(options: SpoolOptions): Spool {
  const memory: Buffer[] = [];
  let memoryBytes = 0;
  let path: string | undefined;
  let handle: Promise<FileHandle> | undefined;
  let sealed = false;
  let removed: Promise<void> | undefined;

  const openFile = (): Promise<FileHandle> => {
    path = join(options.tmpDir ?? tmpdir(), `gateway-upload-${randomUUID()}`);
    return open(path, 'wx', 0o600);
  };

  return {
    memory,
    get path() {
      return path;
    },
    async append(chunk) {
      if (removed) throw new Error('The upload spool was already removed.');
      if (handle === undefined && memoryBytes + chunk.length <= options.memoryBytes) {
        memory.push(chunk);
        memoryBytes += chunk.length;
        return;
      }
      handle ??= openFile();
      const file = await handle;
      let offset = 0;
      while (offset < chunk.length) {
        const { bytesWritten } = await file.write(chunk, offset, chunk.length - offset);
        offset += bytesWritten;
      }
    },
    async seal() {
      if (sealed || handle === undefined) return;
      sealed = true;
      await (await handle).close();
    },
    cleanup() {
      removed ??= removeFile(handle, () => path);
      return removed;
    },
  };
}

async function removeFile(handle: Promise<FileHandle> | undefined, getPath: () => string | undefined): Promise<void> {
  if (handle === undefined) return;
  try {
    // Closing waits for writes in flight; a handle closed already (sealed) rejects, which is fine.
    await (await handle).close();
  } catch {
    // The file may never have been created, or is closed already.
  }
  const path = getPath();
  if (path !== undefined) await rm(path, { force: true }).catch(() => undefined);
}
