import { createHash } from 'node:crypto';
import { access, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where the build keeps what its generators made (beside the packages that made it: a reinstall clears it). */
const CACHE_DIR = join('node_modules', '.cache', 'model-gateway');

/** The cache file of `name` for these inputs: the sha256 of every part (generator versions, options, input texts). */
function getCacheFile(name: string, ext: string, parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${part.length}:${part}`);
  return join(CACHE_DIR, `${name}-${hash.digest('hex').slice(0, 32)}${ext}`);
}

/** Writes a cache file whole or not at all (a build running beside this one may be reading it). */
async function writeCacheFile(file: string, text: string): Promise<void> {
  await mkdir(CACHE_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(partial, text);
  await rename(partial, file);
}

/**
 * The path of the build cache's file of `name` for `parts` (everything its text depends on), made by `make`
 * and written first when absent: a generator that loads seconds of code runs only when its input changed.
 */
export async function getCachedFile(name: string, ext: string, parts: readonly string[], make: () => Promise<string>): Promise<string> {
  const file = getCacheFile(name, ext, parts);
  try {
    await access(file);
  } catch {
    await writeCacheFile(file, await make());
  }
  return file;
}

/** The text of the build cache's file of `name` for `parts`, made by `make` and written first when absent. */
export async function readCached(name: string, ext: string, parts: readonly string[], make: () => Promise<string>): Promise<string> {
  const file = getCacheFile(name, ext, parts);
  const cached = await readCachedText(file);
  if (cached !== undefined) return cached;
  const text = await make();
  await writeCacheFile(file, text);
  return text;
}

async function readCachedText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}
