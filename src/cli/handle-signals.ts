import type { Logger } from 'pino';

/** The message SIGHUP logs when the gateway serves its built tables: there is no file to read again. */
export const RELOAD_NEEDS_CONFIG = 'SIGHUP ignored: reload needs a config file; start the gateway with --config FILE';

/**
 * Makes the process answer signals like every server: the first SIGTERM or SIGINT calls `stop` (drain,
 * or forward to the workers), a repeated one is only logged (a terminal's Ctrl-C reaches every process of
 * the group, and the primary forwards it too); SIGHUP calls `hangup` (the config reload), or without one
 * is logged as needing `--config`.
 */
export function handleSignals(logger: Logger, stop: (signal: NodeJS.Signals) => void, hangup?: () => void): void {
  let stopping: NodeJS.Signals | undefined;
  const onStop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.info(`${signal} received while stopping (after ${stopping}): still draining`);
      return;
    }
    stopping = signal;
    stop(signal);
  };
  process.on('SIGTERM', onStop);
  process.on('SIGINT', onStop);
  process.on('SIGHUP', () => (stopping ? logger.info('SIGHUP ignored while stopping') : hangup ? hangup() : logger.warn(RELOAD_NEEDS_CONFIG)));
}
