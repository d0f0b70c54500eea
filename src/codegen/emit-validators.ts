import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { getValidatorName } from './names.ts';
import { getBanner } from './banner.ts';
import { readCached } from './build-cache.ts';

/** A request schema and its id (file name under schemas/endpoints/ without `.json`). */
export interface EndpointSchema {
  id: string;
  schema: object;
}

/** ajv's standalone ESM code of the schemas, each exported under its name (`exports`: name to schema id). */
async function writeStandaloneCode(sorted: EndpointSchema[], exports: Record<string, string>): Promise<string> {
  const { Ajv, standaloneCode } = await import('../lib/ajv.ts');
  const ajv = new Ajv({ allErrors: false, strict: false, code: { source: true, esm: true, lines: true } });
  for (const { id, schema } of sorted) ajv.addSchema({ ...schema, $id: id });
  return standaloneCode(ajv, exports);
}

/**
 * ajv standalone ESM validators for every endpoint schema, one named export each and all by schema id, plus its .d.ts.
 * ajv's code is cached by ajv's version, this module's text (its options) and the schemas: ajv is loaded only when one changed.
 */
export async function emitValidators(schemas: EndpointSchema[]): Promise<{ code: string; types: string }> {
  const sorted = [...schemas].sort((a, b) => (a.id < b.id ? -1 : 1));
  const exports: Record<string, string> = {};
  for (const { id } of sorted) exports[getValidatorName(id)] = id;
  const parts = [createRequire(import.meta.url)('ajv/package.json').version, await readFile(new URL(import.meta.url), 'utf8'), JSON.stringify(sorted), JSON.stringify(exports)];
  const standalone = await readCached('validators', '.mjs', parts, () => writeStandaloneCode(sorted, exports));
  // ajv's ESM output still require()s its runtime helpers (ajv-validator/ajv#1976): give it a require.
  const code =
    getBanner('schemas/endpoints/*.json') +
    '// @ts-nocheck\n' +
    "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n" +
    standalone.replace(/^"use strict";\n?/, '') +
    '\n/** Every validator by the id of its schema (the route table names schemas by id). */\n' +
    `export const validatorsBySchemaId = {\n${Object.keys(exports).map((name) => `  ${JSON.stringify(exports[name])}: ${name},\n`).join('')}};\n`;
  const types =
    getBanner('schemas/endpoints/*.json') +
    `/** An ajv validator: true when valid, errors on the function otherwise. */\n` +
    `export type Validator = ((data: unknown) => boolean) & { errors?: { instancePath: string; keyword: string; message?: string; params: any }[] | null };\n` +
    Object.keys(exports)
      .map((name) => `/** Validates a request against schemas/endpoints/${exports[name]}.json. */\nexport declare const ${name}: Validator;\n`)
      .join('') +
    `/** Every validator by the id of its schema. */\nexport declare const validatorsBySchemaId: Record<string, Validator>;\n`;
  return { code, types };
}
