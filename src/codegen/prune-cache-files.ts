import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** Files kept per generator: a few configs or branches switched between still hit, and the folder stays small. */
export const KEPT_CACHE_FILES = 8;

/**
 * Removes all but the `keep` most recently used cache files of generator `name` (`name-HASH.ext`) in `dir`,
 * so a build cache that gains a file per changed input does not grow without end, and removes the generator's
 * partial writes that a build which died left over an hour ago (`name-HASH.ext.PID.STARTED.tmp`). A file that vanishes
 * meanwhile (a build beside this one pruned it too) is no error; a build that finds its file gone makes it again.
 */
export async function pruneCacheFiles(dir: string, name: string, ext: string, keep = KEPT_CACHE_FILES, now = Date.now()): Promise<void> {
  const stem = `^${name.replace(/[^\w-]/g, '\\$&')}-[0-9a-f]{32}${ext.replace(/[^\w]/g, '\\$&')}`;
  const pattern = new RegExp(`${stem}$`);
  const partial = new RegExp(`${stem}\\.\\d+\\.(\\d+)\\.tmp$`);
  const names = await readdir(dir);
  await Promise.all(names.filter((entry) => isAbandoned(partial.exec(entry), now)).map((entry) => unlink(join(dir, entry)).catch(ignoreMissing)));
  const files = names.filter((entry) => pattern.test(entry));
  if (files.length <= keep) return;
  const used = await Promise.all(files.map(async (file) => ({ file, at: await readUsedAt(join(dir, file)) })));
  used.sort((a, b) => b.at - a.at);
  await Promise.all(used.slice(keep).map(({ file }) => unlink(join(dir, file)).catch(ignoreMissing)));
}

/** A partial write older than this was left by a build that died before its rename. */
const ABANDONED_MS = 60 * 60 * 1000;

/** True for a partial write (`file.PID.STARTED.tmp`) started over an hour ago. */
function isAbandoned(match: RegExpExecArray | null, now: number): boolean {
  return match !== null && Number(match[1]) < now - ABANDONED_MS;
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
