import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { getCachedFile } from './build-cache.ts';

const require = createRequire(import.meta.url);

/** What the standalone code depends on besides the schema: ajv's and ajv-formats' versions and the module writing it (its options). */
async function listWriterParts(): Promise<string[]> {
  const writer = await readFile(new URL('../config/shape-validator.ts', import.meta.url), 'utf8');
  return [require('ajv/package.json').version, require('ajv-formats/package.json').version, writer];
}

/**
 * The build's validator of gateway.yaml's shape by the config schema it composed (`schemaText`): the one
 * src/config/shape-validator.ts compiles, kept as ajv's standalone code in the build cache and loaded
 * from there, so that ajv's compiler (a fifth of a 10,000-model build) runs only when the schema changed.
 */
export async function readShapeValidator(schemaText: string): Promise<ValidateFunction> {
  const file = await getCachedFile('shape-validator', '.cjs', [...(await listWriterParts()), schemaText], async () => {
    const { writeShapeValidatorCode } = await import('../config/shape-validator.ts');
    return writeShapeValidatorCode(JSON.parse(schemaText));
  });
  return require(resolve(file)) as ValidateFunction;
}
