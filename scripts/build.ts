/**
 * `npm run build`: the protocol registries + schemas/gateway.base.schema.json -> schemas/gateway.schema.json
 * (composed first, and gateway.yaml checked with it: one build is enough after a fragment changed), then
 * gateway.yaml + schemas/ -> generated/ (tables, validators, OpenAPI document and types, the config types
 * from the composed schema, the protocol option sets). Deterministic: the same inputs give byte-identical
 * output. Exits 1 on any config problem.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { checkConfig, formatProblem } from '../src/config/check.ts';
import { compileConfig } from '../src/config/compile.ts';
import { ENDPOINT_SCHEMA_DIR, listSchemaIds } from '../src/config/endpoint-schemas.ts';
import { readConfigFile } from '../src/config/load.ts';
import { OPERATIONS } from '../src/config/operations.ts';
import { getBanner } from '../src/codegen/banner.ts';
import { composeConfigSchema } from '../src/codegen/compose-config-schema.ts';
import { emitConfigTypes } from '../src/codegen/emit-config-types.ts';
import { emitConfigModule } from '../src/codegen/emit-config.ts';
import { emitOpenApi } from '../src/codegen/emit-openapi.ts';
import { emitOpenApiTypes } from '../src/codegen/emit-openapi-types.ts';
import { emitProtocolTypes } from '../src/codegen/emit-protocol-types.ts';
import { emitValidators, type EndpointSchema } from '../src/codegen/emit-validators.ts';
import { readShapeValidator } from '../src/codegen/read-shape-validator.ts';
import { readSourcesHash } from '../src/config/sources-hash.ts';
import { emitConsoleAssets } from '../src/console/emit-console-assets.ts';
import { PROTOCOLS } from '../src/protocols/index.ts';
import { STYLES } from '../src/protocols/styles.ts';
import type { ProtocolAdapter } from '../src/protocols/types.ts';

/** What a build is made from besides the config file (tests build with a changed registry into temp files). */
export interface BuildOptions {
  /** The protocol registry whose fragments and names compose the config schema (default PROTOCOLS). */
  registry?: Readonly<Record<string, ProtocolAdapter>>;
  /** Where the composed config schema is written (default: not written). */
  schemaFile?: string;
}

/** Builds generated/ from a config file, checked with the schema composed in the same run; returns the files written. */
export async function build(configFile = 'gateway.yaml', outDir = 'generated', options: BuildOptions = {}): Promise<string[]> {
  const registry = options.registry ?? PROTOCOLS;
  const schemaText = await readComposedConfigSchema(registry);
  if (options.schemaFile) await writeFile(options.schemaFile, schemaText);
  const loaded = await readConfigFile(configFile);
  const schemaIds = await listSchemaIds();
  const problems = checkConfig(loaded, schemaIds, await readShapeValidator(schemaText));
  if (problems.length) {
    for (const problem of problems) console.error(formatProblem(problem));
    throw new Error(`${problems.length} problem(s) in ${configFile}`);
  }
  const config = compileConfig(loaded.value);
  const ids = [...schemaIds].sort();
  const schemas: EndpointSchema[] = await Promise.all(
    ids.map(async (id) => ({ id, schema: JSON.parse(await readFile(join(ENDPOINT_SCHEMA_DIR, `${id}.json`), 'utf8')) })),
  );
  const validators = await emitValidators(schemas);
  const openapi = emitOpenApi(config, schemas);
  const files: Record<string, string> = {
    'config.ts': emitConfigModule(config, configFile, await readSourcesHash(configFile, dirname(ENDPOINT_SCHEMA_DIR))),
    'validators.mjs': validators.code,
    'validators.d.mts': validators.types,
    'openapi.json': openapi,
    'openapi.d.ts': getBanner(configFile) + (await emitOpenApiTypes(openapi)),
    'console.ts': await emitConsoleAssets(),
    'config-types.ts': await emitConfigTypes(schemaText),
    'protocols.ts': emitProtocolTypes(registry),
  };
  await mkdir(outDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(outDir, name), text);
  return Object.keys(files).map((name) => join(outDir, name));
}

/** The config schema's files: the base schema the protocol folders' fragments are added to, and the composed schema. */
export const CONFIG_SCHEMA_FILES = { base: 'schemas/gateway.base.schema.json', composed: 'schemas/gateway.schema.json' };

/** The text of schemas/gateway.schema.json: the base schema, the registries' names and the protocols' fragments. */
export async function readComposedConfigSchema(registry: Readonly<Record<string, ProtocolAdapter>> = PROTOCOLS): Promise<string> {
  return composeConfigSchema(await readFile(CONFIG_SCHEMA_FILES.base, 'utf8'), registry, Object.keys(STYLES), OPERATIONS);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  build(process.argv[2], process.argv[3], { schemaFile: CONFIG_SCHEMA_FILES.composed })
    .then((files) => console.log(`built ${files.length} files in ${Math.round(performance.now() - started)} ms`))
    .catch((error: Error) => {
      console.error(error.message);
      process.exit(1);
    });
}
