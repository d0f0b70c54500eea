import type { Logger } from 'pino';
import type { CompiledConfig } from '../config/types.ts';
import type { ValueStore } from '../limits/store.ts';

/**
 * The task secret kept in `server.store` (or beside the config), when the environment names none; undefined
 * (the gateway signs with a random secret of this process) when it cannot be kept, with a warning saying what that costs.
 */
export async function readKeptTaskSecret(config: CompiledConfig, env: NodeJS.ProcessEnv, values: ValueStore | undefined, configDir: string, logger: Logger): Promise<string | undefined> {
  if (env[config.server.taskSecret.env]) return undefined;
  const { keepTaskSecret } = await import('../runtime/keep-task-secret.ts');
  try {
    return await keepTaskSecret(values, configDir);
  } catch (error) {
    logger.warn(
      { err: error },
      `the task secret could not be kept (set ${config.server.taskSecret.env}, or make server.store or the config folder writable): task ids (/v1/videos, native task entries) are signed with a random secret of this process, so they answer 404 after a restart and in any other --workers process`,
    );
    return undefined;
  }
}
