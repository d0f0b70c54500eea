import { pino, type Logger } from 'pino';

let fallback: Logger | undefined;

/** The limits module's logger: a child of `parent` when given, else of a default pino logger. */
export function getLimitsLogger(parent?: Logger): Logger {
  if (parent) return parent.child({ module: 'limits' });
  fallback ??= pino({ level: process.env.LOG_LEVEL ?? 'info' }).child({ module: 'limits' });
  return fallback;
}
