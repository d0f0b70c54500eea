import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The first folder up from this module that holds schemas/endpoints (src/config/ here, dist/ when bundled). */
function findEndpointSchemaDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'schemas', 'endpoints');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return fileURLToPath(new URL('../../schemas/endpoints/', import.meta.url));
    dir = parent;
  }
}

/** The folder of endpoint request schemas. */
export const ENDPOINT_SCHEMA_DIR = findEndpointSchemaDir();

/** Ids of the request schemas in schemas/endpoints/ (file names without `.json`). */
export async function listSchemaIds(dir = ENDPOINT_SCHEMA_DIR): Promise<Set<string>> {
  const files = await readdir(dir);
  return new Set(files.filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)));
}
