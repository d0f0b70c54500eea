import fs from 'node:fs';
import { destination as openDestination, pino, type DestinationStream, type Logger } from 'pino';
import { createRedactor, type Redactor } from './runtime/redact.ts';

/** The destination every line of a logger goes through: each serialized line is redacted, then written. */
interface RedactingDestination extends DestinationStream {
  redactor: Redactor;
  flushSync?(): void;
}

const destinations = new WeakMap<Logger, RedactingDestination>();

/** How long a line may wait in the log buffer before it is written anyway (a quiet gateway still logs promptly). */
const FLUSH_INTERVAL_MS = 200;
/** Lines are gathered until they hold this many bytes, then written in one write. */
const BATCH_BYTES = 3072;
/** No write is longer (PIPE_BUF, unless one line alone is): workers sharing one pipe never interleave inside a line. */
const MAX_WRITE_BYTES = 4096;
/**
 * Standard output is a file: lines are gathered up to 32 KB a write (about 60 request lines) and 64 KB at
 * most. A write to a regular file is never interleaved with another process's (they share the file's offset
 * or append), so the pipe's 4 KB bound does not apply; at 3 KB, one `writeSync` per five lines was a third
 * of the request line's cost.
 */
const FILE_BATCH_BYTES = 32 * 1024;
const FILE_MAX_WRITE_BYTES = 64 * 1024;

function isFile(fd: number): boolean {
  try {
    return fs.fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

/** Where the batches of {@link openStdout} go: a write of whole lines, and the flushes of what is still pending. */
interface LineOutput {
  write(text: string): void;
  flush(cb?: (error?: Error) => void): void;
  flushSync(): void;
}

/**
 * Standard output on a regular file: each batch is written at once by one `writeSync` of its text (a file
 * never answers EAGAIN, so nothing is left pending). sonic-boom, used for a pipe, would encode every batch
 * it wrote into a new Buffer afterwards only to count the bytes written: a 32 KB allocation per batch that
 * cost more than the write itself.
 */
function openFileOutput(fd: number): LineOutput {
  return {
    write(text) {
      const written = fs.writeSync(fd, text);
      // A short write (a full disk, a file size limit): the rest is written until done or the write throws.
      if (written !== Buffer.byteLength(text)) {
        const bytes = Buffer.from(text);
        for (let done = written; done < bytes.length; ) done += fs.writeSync(fd, bytes, done);
      }
    },
    flush: (cb) => cb && process.nextTick(cb),
    flushSync: () => undefined,
  };
}

/**
 * The default destination: standard output through a buffer: lines are written together once 3 KB are
 * queued (one write for about 15 request lines instead of one per request; 32 KB when standard output is a
 * file) or every {@link FLUSH_INTERVAL_MS}, and synchronously when the process exits (every `process.exit`,
 * the end of a drain included: test/logger-flush-on-exit.test.ts). Writes to a pipe carry at most PIPE_BUF
 * bytes of whole lines, so workers sharing one pipe never interleave inside a line. The lines are gathered
 * here and joined once per write (sonic-boom's own buffer measures its whole buffered text again on every
 * line it adds); a pipe's batches go through sonic-boom (which retries on EAGAIN), a file's straight to
 * `writeSync` ({@link openFileOutput}).
 */
function openStdout(): DestinationStream {
  const toFile = isFile(1);
  const batchBytes = toFile ? FILE_BATCH_BYTES : BATCH_BYTES;
  const maxWrite = toFile ? FILE_MAX_WRITE_BYTES : MAX_WRITE_BYTES;
  // A file's batches need no exact size (no atomicity bound to keep): the line's length is enough there.
  const measure = toFile ? (line: string) => line.length : (line: string) => Buffer.byteLength(line);
  const out: LineOutput = toFile ? openFileOutput(1) : openDestination({ dest: 1, sync: true, maxWrite });
  let lines: string[] = [];
  let bytes = 0;
  const writeLines = () => {
    if (lines.length === 0) return;
    const text = lines.length === 1 ? lines[0] : lines.join('');
    lines = [];
    bytes = 0;
    out.write(text);
  };
  const flush = (write: () => void) => () => {
    try {
      writeLines();
      write();
    } catch {
      // Standard output is gone (a closed pipe): nothing can be written any more.
    }
  };
  setInterval(flush(() => out.flush()), FLUSH_INTERVAL_MS).unref();
  process.once('exit', flush(() => out.flushSync()));
  return {
    write(line: string) {
      const size = measure(line);
      if (bytes + size > maxWrite) writeLines();
      lines.push(line);
      bytes += size;
      if (bytes >= batchBytes) writeLines();
    },
    flush(cb?: (error?: Error) => void) {
      writeLines();
      out.flush(cb);
    },
    flushSync() {
      writeLines();
      out.flushSync();
    },
  } as DestinationStream;
}

/**
 * The gateway's structured logger (JSON lines, on stdout unless `destination` is given). Every line is
 * redacted of the secrets set by {@link setLogSecrets} before it is written (messages, logged errors'
 * causes and stacks, vendor URLs alike): one `indexOf` per form of each secret, on the serialized line.
 */
export function createLogger(level = 'info', destination: DestinationStream = openStdout()): Logger {
  const out = destination as DestinationStream & { flush?(cb?: (error?: Error) => void): void; flushSync?(): void };
  const redacting: RedactingDestination & { flush?: unknown } = {
    redactor: createRedactor([]),
    write(line: string) {
      const { redactor } = redacting;
      out.write(redactor.forms.length ? redactor.redactText(line) : line);
    },
  };
  if (out.flush) redacting.flush = (cb?: (error?: Error) => void) => out.flush!(cb);
  if (out.flushSync) redacting.flushSync = () => out.flushSync!();
  const logger = pino({ level, base: undefined, redact: ['req.headers.authorization', 'req.headers["x-api-key"]'] }, redacting);
  destinations.set(logger, redacting);
  return logger;
}

/**
 * The writer of lines already serialized (JSON and its newline, shaped as pino shapes its lines) through
 * `logger`'s destination, redacted like every line (by the secrets set last): the request log line, written
 * once per request, skips pino's per-field serializer (src/cli/format-request-line.ts). Looked up once, not
 * per line. The caller checks that the lines' level is enabled.
 */
export function getLineWriter(logger: Logger): (line: string) => void {
  const destination = destinations.get(logger);
  if (!destination) throw new Error('getLineWriter: the logger was not made by createLogger');
  return (line) => destination.write(line);
}

/**
 * Sets the secrets removed from every later line of `logger` (and of its children), as listed by
 * `listSecrets` (src/runtime/secrets.ts) once the config and environment are known; a reload sets them again.
 */
export function setLogSecrets(logger: Logger, secrets: Iterable<string | undefined>): void {
  const destination = destinations.get(logger);
  if (!destination) throw new Error('setLogSecrets: the logger was not made by createLogger');
  destination.redactor = createRedactor(secrets);
}
