import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** Files kept per generator: a few configs or branches switched between still hit, and the folder stays small. */
export const KEPT_CACHE_FILES = 8;

/**
 * Removes all but the `keep` most recently used cache files of generator `name` (`name-HASH.ext`) in `dir`,
 * so a build cache that gains a file per changed input does not grow without end. A file that vanishes
 * meanwhile (a build beside this one pruned it too) is no error; a build that finds its file gone makes it again.
 */
export async function pruneCacheFiles(dir: string, name: string, ext: string, keep = KEPT_CACHE_FILES): Promise<void> {
  const pattern = new RegExp(`^${name.replace(/[^\w-]/g, '\\$&')}-[0-9a-f]{32}${ext.replace(/[^\w]/g, '\\$&')}$`);
  const files = (await readdir(dir)).filter((file) => pattern.test(file));
  if (files.length <= keep) return;
  const used = await Promise.all(files.map(async (file) => ({ file, at: await readUsedAt(join(dir, file)) })));
  used.sort((a, b) => b.at - a.at);
  await Promise.all(used.slice(keep).map(({ file }) => unlink(join(dir, file)).catch(ignoreMissing)));
}

async function readUsedAt(path: string): Promise<number> {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return 0;
  }
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}
