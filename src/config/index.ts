import { checkConfig } from './check.ts';
import { compileConfig } from './compile.ts';
import { listSchemaIds } from './endpoint-schemas.ts';
import { parseConfig, readConfigFile, type LoadedConfig, type Problem } from './load.ts';
import { getShapeValidator } from './shape-validator.ts';
import type { CompiledConfig } from './types.ts';

export { ENDPOINT_SCHEMA_DIR, listSchemaIds } from './endpoint-schemas.ts';

/** The result of checking and compiling a config: tables when clean, problems otherwise. */
export interface CompileResult {
  config?: CompiledConfig;
  problems: Problem[];
}

function compileLoaded(loaded: LoadedConfig, schemaIds: ReadonlySet<string>): CompileResult {
  const problems = checkConfig(loaded, schemaIds, getShapeValidator());
  return problems.length ? { problems } : { config: compileConfig(loaded.value), problems };
}

/** Checks and compiles YAML text. */
export async function compileConfigText(text: string, file = 'gateway.yaml'): Promise<CompileResult> {
  return compileLoaded(parseConfig(text, file), await listSchemaIds());
}

/** Checks (by the committed config schema) and compiles a YAML file. */
export async function compileConfigFile(file: string): Promise<CompileResult> {
  return compileLoaded(await readConfigFile(file), await listSchemaIds());
}

export { formatProblem } from './check.ts';
export type { Problem } from './load.ts';
