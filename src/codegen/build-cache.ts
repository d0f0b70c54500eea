import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pruneCacheFiles } from './prune-cache-files.ts';

/** Where the build keeps what its generators made (beside the packages that made it: a reinstall clears it). */
const CACHE_DIR = join('node_modules', '.cache', 'model-gateway');

/** The cache file of `name` for these inputs: the sha256 of every part (generator versions, options, input texts). */
function getCacheFile(name: string, ext: string, parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${part.length}:${part}`);
  return join(CACHE_DIR, `${name}-${hash.digest('hex').slice(0, 32)}${ext}`);
}

/**
 * Writes a cache file whole or not at all (a build running beside this one may be reading it), then prunes
 * the generator's least recently used files.
 */
async function writeCacheFile(name: string, ext: string, file: string, text: string): Promise<void> {
  await mkdir(CACHE_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(partial, text);
  await rename(partial, file);
  await pruneCacheFiles(CACHE_DIR, name, ext);
}

/** Marks a cache file as just used (its modification time: pruning keeps the most recently used); false when absent. */
async function touchCacheFile(file: string): Promise<boolean> {
  const now = new Date();
  try {
    await utimes(file, now, now);
    return true;
  } catch {
    return false;
  }
}

/**
 * The path of the build cache's file of `name` for `parts` (everything its text depends on), made by `make`
 * and written first when absent: a generator that loads seconds of code runs only when its input changed.
 */
export async function getCachedFile(name: string, ext: string, parts: readonly string[], make: () => Promise<string>): Promise<string> {
  const file = getCacheFile(name, ext, parts);
  if (!(await touchCacheFile(file))) await writeCacheFile(name, ext, file, await make());
  return file;
}

/** The text of the build cache's file of `name` for `parts`, made by `make` and written first when absent. */
export async function readCached(name: string, ext: string, parts: readonly string[], make: () => Promise<string>): Promise<string> {
  const file = getCacheFile(name, ext, parts);
  const cached = await readCachedText(file);
  if (cached !== undefined) return cached;
  const text = await make();
  await writeCacheFile(name, ext, file, text);
  return text;
}

async function readCachedText(file: string): Promise<string | undefined> {
  try {
    const text = await readFile(file, 'utf8');
    await touchCacheFile(file);
    return text;
  } catch {
    return undefined;
  }
}
