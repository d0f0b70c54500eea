import { destination as openDestination, pino, type DestinationStream, type Logger } from 'pino';
import { createRedactor, type Redactor } from './runtime/redact.ts';

/** The destination every line of a logger goes through: each serialized line is redacted, then written. */
interface RedactingDestination extends DestinationStream {
  redactor: Redactor;
}

const destinations = new WeakMap<Logger, RedactingDestination>();

/**
 * The gateway's structured logger (JSON lines, on stdout unless `destination` is given). Every line is
 * redacted of the secrets set by {@link setLogSecrets} before it is written (messages, logged errors'
 * causes and stacks, vendor URLs alike): one `indexOf` per form of each secret, on the serialized line.
 */
export function createLogger(level = 'info', destination: DestinationStream = openDestination(1)): Logger {
  const out = destination as DestinationStream & { flush?(cb?: (error?: Error) => void): void; flushSync?(): void };
  const redacting: RedactingDestination & { flush?: unknown; flushSync?: unknown } = {
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
 * Sets the secrets removed from every later line of `logger` (and of its children), as listed by
 * `listSecrets` (src/runtime/secrets.ts) once the config and environment are known; a reload sets them again.
 */
export function setLogSecrets(logger: Logger, secrets: Iterable<string | undefined>): void {
  const destination = destinations.get(logger);
  if (!destination) throw new Error('setLogSecrets: the logger was not made by createLogger');
  destination.redactor = createRedactor(secrets);
}
