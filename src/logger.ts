import { pino, type Logger } from 'pino';

/** The gateway's structured logger (JSON lines on stdout). Never given vendor secrets. */
export function createLogger(level = 'info'): Logger {
  return pino({ level, base: undefined, redact: ['req.headers.authorization', 'req.headers["x-api-key"]'] });
}
