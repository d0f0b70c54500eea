import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

async function listJsonFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.json')).map((entry) => join(entry.parentPath, entry.name));
}

/**
 * The sha256 (hex) of what `npm run build` compiles: the config file's text and every JSON file under
 * `schemaDir` (by path relative to it), in a fixed order and with line endings normalized, so a checkout
 * on any system gives the same hash. The build writes it into generated/config.ts; `gateway start`
 * compares it with the sources beside it.
 */
export async function readSourcesHash(configFile: string, schemaDir: string): Promise<string> {
  const hash = createHash('sha256');
  const add = (name: string, text: string) => hash.update(`${name}\0${text.replace(/\r\n/g, '\n')}\0`);
  add('config', await readFile(configFile, 'utf8'));
  const files = (await listJsonFiles(schemaDir)).map((file) => ({ file, name: relative(schemaDir, file).split(sep).join('/') }));
  files.sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const { file, name } of files) add(name, await readFile(file, 'utf8'));
  return hash.digest('hex');
}
