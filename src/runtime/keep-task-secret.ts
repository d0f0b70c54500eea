import { randomBytes } from 'node:crypto';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ValueStore } from '../limits/store.ts';

/** The Redis key of the task secret (one value shared by every process and machine on the store). */
const TASK_SECRET_KEY = 'gateway:task-secret';
/** Values of the store expire; the task secret should not (a hundred years). */
const FOREVER_MS = 100 * 365 * 24 * 3600 * 1000;
/** The file of the task secret with the memory store, in the config file's folder. */
export const TASK_SECRET_FILE = '.gateway-task-secret';

/**
 * The task secret used when the environment names none: a random one, created once and kept in
 * `server.store` (a Redis value), or with the memory store in a file beside the config
 * (`.gateway-task-secret`, mode 0600). The first process to start creates it; every other process, later
 * restarts and reloads read the same one, so task ids outlive restarts and key changes.
 */
export async function keepTaskSecret(values: ValueStore | undefined, configDir: string): Promise<string> {
  const fresh = randomBytes(32).toString('base64url');
  if (values) return values.keep(TASK_SECRET_KEY, fresh, FOREVER_MS);
  const file = join(configDir, TASK_SECRET_FILE);
  const held = await readSecretFile(file);
  if (held !== undefined) return held;
  // Written whole under another name, then linked: a process starting alongside reads all of it or none.
  const temporary = `${file}.${process.pid}.${fresh.slice(0, 8)}.tmp`;
  await writeFile(temporary, fresh, { mode: 0o600 });
  try {
    await link(temporary, file);
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = await readSecretFile(file);
    if (winner === undefined) throw error;
    return winner;
  } finally {
    await rm(temporary, { force: true });
  }
}

async function readSecretFile(file: string): Promise<string | undefined> {
  try {
    const text = (await readFile(file, 'utf8')).trim();
    return text || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
