import type { Logger } from 'pino';
import { getLineWriter } from '../logger.ts';
import { createRequestLineFormatter } from './format-request-line.ts';
import type { UsageEvent } from '../runtime/types.ts';

/**
 * The request log line: one per request at `info`, the usage event's fields serialized by hand (format-request-line.ts); a request
 * the gateway itself failed (500 `internal_error`) is logged at `error` through pino, with its cause and stack
 * as pino's `err` (the logger redacts secrets from both). Returns no receiver below `info`, so no usage event
 * is built at all.
 */
export function createRequestLog(logger: Logger): ((event: UsageEvent) => void)[] {
  if (!logger.isLevelEnabled('info')) return [];
  const formatLine = createRequestLineFormatter();
  const writeLine = getLineWriter(logger);
  return [(event) => (event.cause === undefined ? writeLine(formatLine(event, Date.now())) : logger.error({ ...event, cause: undefined, err: event.cause }, 'request'))];
}
