import { parseArgs } from 'node:util';

/** The options of `gateway start` and `gateway dev`, checked. */
export interface StartOptions {
  help: boolean;
  config?: string;
  port?: number;
  host?: string;
  simulate?: boolean;
  logLevel?: string;
  /** Processes sharing the port (1: this process serves). */
  workers: number;
  /** How long SIGTERM/SIGINT let requests in flight finish, in milliseconds. */
  drainMs: number;
  /** Reload when the `--config` file changes (needs `config`). */
  watch: boolean;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function readInteger(value: string | undefined, name: string, min: number, max: number): number | string | undefined {
  if (value === undefined) return undefined;
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  return number >= min && number <= max ? number : `--${name} must be an integer from ${min} to ${max}, not "${value}"`;
}

/**
 * Parses the arguments of `start`/`dev`: the options, or a message saying what is wrong (an unknown
 * option, a port, worker count or drain timeout that is not a number in range, an unknown log level).
 */
export function readStartOptions(args: string[]): { options: StartOptions } | { error: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        help: { type: 'boolean', short: 'h' },
        config: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        simulate: { type: 'boolean' },
        'log-level': { type: 'string' },
        workers: { type: 'string' },
        'drain-timeout': { type: 'string' },
        watch: { type: 'boolean' },
      },
    }));
  } catch (error) {
    return { error: (error as Error).message };
  }
  const port = readInteger(values.port, 'port', 0, 65535);
  const workers = readInteger(values.workers, 'workers', 1, 1024) ?? 1;
  const drain = values['drain-timeout'] ?? '30';
  const drainSeconds = /^\d+(\.\d+)?$/.test(drain) ? Number(drain) : NaN;
  const logLevel = values['log-level'];
  const error =
    (typeof port === 'string' && port) ||
    (typeof workers === 'string' && workers) ||
    (Number.isFinite(drainSeconds) ? undefined : `--drain-timeout must be a number of seconds (0 or more), not "${drain}"`) ||
    (logLevel === undefined || LOG_LEVELS.includes(logLevel) ? undefined : `--log-level must be one of ${LOG_LEVELS.join(', ')}, not "${logLevel}"`) ||
    (values.watch && values.config === undefined ? '--watch needs --config FILE (the file to watch)' : undefined);
  if (error) return { error };
  return {
    options: {
      help: values.help ?? false,
      config: values.config,
      port: port as number | undefined,
      host: values.host,
      simulate: values.simulate,
      logLevel,
      workers: workers as number,
      drainMs: drainSeconds * 1000,
      watch: values.watch ?? false,
    },
  };
}
