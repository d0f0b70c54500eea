import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkConfig } from './check.ts';
import { compileConfig } from './compile.ts';
import { parseConfig, readConfigFile, type LoadedConfig, type Problem } from './load.ts';
import type { CompiledConfig } from './types.ts';

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

/** The result of checking and compiling a config: tables when clean, problems otherwise. */
export interface CompileResult {
  config?: CompiledConfig;
  problems: Problem[];
}

function compileLoaded(loaded: LoadedConfig, schemaIds: ReadonlySet<string>, schema?: object): CompileResult {
  const problems = checkConfig(loaded, schemaIds, schema);
  return problems.length ? { problems } : { config: compileConfig(loaded.value), problems };
}

/** Checks and compiles YAML text. */
export async function compileConfigText(text: string, file = 'gateway.yaml'): Promise<CompileResult> {
  return compileLoaded(parseConfig(text, file), await listSchemaIds());
}

/** Checks and compiles a YAML file (by `schema`, else the committed config schema). */
export async function compileConfigFile(file: string, schema?: object): Promise<CompileResult> {
  return compileLoaded(await readConfigFile(file), await listSchemaIds(), schema);
}

export { formatProblem } from './check.ts';
export type { Problem } from './load.ts';
