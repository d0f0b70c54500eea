import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { readFile, realpath } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** A running watch of a config file. */
export interface ConfigWatch {
  close(): void;
}

async function hashFile(file: string): Promise<string | undefined> {
  try {
    return createHash('sha256').update(await readFile(file)).digest('hex');
  } catch {
    return undefined;
  }
}

/**
 * Calls `onChange` when the content of `file` changes, `debounceMs` after the last event of a burst (an editor's
 * or a deploy's several writes make one call). It watches the file's folder, not the file, so a file replaced by a
 * rename or reached through a swapped symlink (a Kubernetes ConfigMap volume swaps its `..data` link) is caught,
 * and compares a hash of the content, so events that change nothing (a touch, another file) make no call.
 * A file that is missing for a moment is waited for.
 */
export async function watchConfigFile(file: string, onChange: () => void, debounceMs = 300): Promise<ConfigWatch> {
  const path = resolve(file);
  let last = await hashFile(path);
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const check = async () => {
    const hash = await hashFile(path);
    if (closed || hash === undefined || hash === last) return;
    last = hash;
    onChange();
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void check(), debounceMs);
  };
  // The file's folder, and the folder of the file a symlink leads to (edited in place there).
  const target = await realpath(path).catch(() => path);
  const watchers: FSWatcher[] = [...new Set([dirname(path), dirname(target)])].map((folder) => {
    const watcher = watch(folder, { persistent: false }, schedule);
    // A folder that goes away (a removed volume) ends its watch; the gateway keeps serving its config.
    watcher.on('error', () => watcher.close());
    return watcher;
  });
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
