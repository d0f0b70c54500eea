import { Ajv, standaloneCode } from '../lib/ajv.ts';
import { getValidatorName } from './names.ts';
import { getBanner } from './banner.ts';

/** A request schema and its id (file name under schemas/endpoints/ without `.json`). */
export interface EndpointSchema {
  id: string;
  schema: object;
}

/** ajv standalone ESM validators for every endpoint schema, one named export each and all by schema id, plus its .d.ts. */
export function emitValidators(schemas: EndpointSchema[]): { code: string; types: string } {
  const ajv = new Ajv({ allErrors: false, strict: false, code: { source: true, esm: true, lines: true } });
  const sorted = [...schemas].sort((a, b) => (a.id < b.id ? -1 : 1));
  const exports: Record<string, string> = {};
  for (const { id, schema } of sorted) {
    ajv.addSchema({ ...schema, $id: id });
    exports[getValidatorName(id)] = id;
  }
  // ajv's ESM output still require()s its runtime helpers (ajv-validator/ajv#1976): give it a require.
  const code =
    getBanner('schemas/endpoints/*.json') +
    '// @ts-nocheck\n' +
    "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n" +
    standaloneCode(ajv, exports).replace(/^"use strict";\n?/, '') +
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
