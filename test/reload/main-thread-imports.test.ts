import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every module `entry` loads through static imports (`import type` loads nothing): project files and package names. */
function listStaticImports(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    const name = relative(process.cwd(), file);
    if (seen.has(name)) return;
    seen.add(name);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
      const specifier = match[1];
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else seen.add(specifier);
    }
  };
  visit(resolve(entry));
  return seen;
}

/** What only the compile worker may load: the config compiler, its YAML parser and its schema checks. */
const COMPILER = ['src/config/index.ts', 'src/config/compile.ts', 'src/config/load.ts', 'src/config/check.ts', 'src/config/shape-validator.ts', 'yaml', 'js-yaml', 'ajv'];

describe('the reload path on the main thread', () => {
  it.each(['src/reload/create-reloader.ts', 'src/cli/start-reloads.ts', 'src/admin/reload-route.ts', 'src/reload/share-with-workers.ts', 'src/gateway/create-gateway.ts'])(
    '%s never loads the config compiler (it runs in the worker thread)',
    (entry) => {
      const loaded = listStaticImports(entry);
      expect(loaded.has(join(entry))).toBe(true);
      expect(COMPILER.filter((module) => loaded.has(module))).toEqual([]);
    },
  );

  it('the compile worker does load it (the walk follows imports)', () => {
    const loaded = listStaticImports('src/reload/compile-worker.ts');
    expect(loaded.has('src/config/index.ts')).toBe(true);
    expect(loaded.has('js-yaml')).toBe(true);
  });
});
