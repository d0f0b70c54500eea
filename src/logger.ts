import fs from 'node:fs';
import { destination as openDestination, pino, type DestinationStream, type Logger } from 'pino';
import { createRedactor, type Redactor } from './runtime/redact.ts';
import { openFileLines, type LineSink } from './log-file-lines.ts';

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

function isFile(fd: number): boolean {
  try {
    return fs.fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

/**
 * Standard output on a pipe (or a terminal): lines are gathered and written together once 3 KB are queued
 * (one write for about 15 request lines instead of one per request), each write at most PIPE_BUF bytes of
 * whole lines, so workers sharing one pipe never interleave inside a line. The lines are joined once per write
 * (sonic-boom's own buffer measures its whole buffered text again on every line it adds); sonic-boom writes
 * the batches (it retries on EAGAIN).
 */
function openPipeLines(fd: number): LineSink {
  const out = openDestination({ dest: fd, sync: true, maxWrite: MAX_WRITE_BYTES });
  let lines: string[] = [];
  let bytes = 0;
  const writeLines = () => {
    if (lines.length === 0) return;
    const text = lines.length === 1 ? lines[0] : lines.join('');
    lines = [];
    bytes = 0;
    out.write(text);
  };
  return {
    write(line) {
      const size = Buffer.byteLength(line);
      if (bytes + size > MAX_WRITE_BYTES) writeLines();
      lines.push(line);
      bytes += size;
      if (bytes >= BATCH_BYTES) writeLines();
    },
    flush(cb) {
      writeLines();
      out.flush(cb);
    },
    flushSync() {
      writeLines();
      out.flushSync();
    },
  };
}

/**
 * The default destination: standard output in batches of lines (a file's: {@link openFileLines}; a pipe's:
 * {@link openPipeLines}), written at the latest every {@link FLUSH_INTERVAL_MS}, and synchronously when the
 * process exits (every `process.exit`, the end of a drain included: test/logger-flush-on-exit.test.ts).
 */
function openStdout(): DestinationStream {
  const sink = isFile(1) ? openFileLines(1) : openPipeLines(1);
  const guard = (write: () => void) => () => {
    try {
      write();
    } catch {
      // Standard output is gone (a closed pipe): nothing can be written any more.
    }
  };
  setInterval(guard(() => sink.flush()), FLUSH_INTERVAL_MS).unref();
  process.once('exit', guard(() => sink.flushSync()));
  return sink as DestinationStream;
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
