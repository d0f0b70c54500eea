import type { Logger } from 'pino';

/**
 * Makes the process answer signals like every server: the first SIGTERM or SIGINT calls `stop` (drain,
 * or forward to the workers), a repeated one is only logged (a terminal's Ctrl-C reaches every process of
 * the group, and the primary forwards it too); SIGHUP is logged and ignored, since there is no config
 * reload yet.
 */
export function handleSignals(logger: Logger, stop: (signal: NodeJS.Signals) => void): void {
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
  process.on('SIGHUP', () => logger.warn('SIGHUP ignored: the gateway has no config reload yet; restart it to apply a new config'));
}
