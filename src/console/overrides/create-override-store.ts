import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ValueStore } from '../../limits/store.ts';

/** Where the overrides are kept: their JSON text, read and written whole. */
export interface OverrideStore {
  /** Where, for the log: `redis` or the file's path. */
  where: string;
  /** The stored text, or undefined when there are no overrides yet. */
  read(): Promise<string | undefined>;
  write(text: string): Promise<void>;
}

/** The Redis key of the overrides (one value shared by every process and machine on the store). */
const OVERRIDES_KEY = 'gateway:console:overrides';
/** Values of the store expire; the overrides should not (a hundred years). */
const FOREVER_MS = 100 * 365 * 24 * 3600 * 1000;
/** The file of the overrides with the memory store, in the config file's folder. */
export const OVERRIDES_FILE = '.gateway-overrides.json';

/**
 * The store of the console's overrides: a value of `server.store` on Redis, or with the memory store a
 * file beside the config (`.gateway-overrides.json`, replaced by a rename so a reader never sees half of it).
 */
export function createOverrideStore(values: ValueStore | undefined, configDir: string): OverrideStore {
  if (values) {
    return {
      where: 'redis',
      read: () => values.get(OVERRIDES_KEY),
      write: (text) => values.set([[OVERRIDES_KEY, text]], FOREVER_MS),
    };
  }
  const file = join(configDir, OVERRIDES_FILE);
  return {
    where: file,
    async read() {
      try {
        return await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async write(text) {
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, text);
      await rename(temporary, file);
    },
  };
}
