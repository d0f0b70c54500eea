import { pino, type Logger } from 'pino';

let logger: Logger | undefined;

/** The Responses-state module's logger (warnings about responses that could not be kept). */
export function getResponsesLogger(): Logger {
  logger ??= pino({ level: process.env.LOG_LEVEL ?? 'info' }).child({ module: 'responses-state' });
  return logger;
}
