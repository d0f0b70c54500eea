import type { ValidateFunction } from 'ajv';
import gatewaySchema from '../../schemas/gateway.schema.json' with { type: 'json' };
import { Ajv, addFormats, standaloneCode } from '../lib/ajv.ts';

const validators = new WeakMap<object, ValidateFunction>();

/** ajv for the shape check: every error, each with the data it is about (a pattern's message quotes it), formats known. */
function defineShapeAjv(keepSource: boolean): InstanceType<typeof Ajv> {
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, ...(keepSource ? { code: { source: true } } : {}) });
  addFormats(ajv);
  return ajv;
}

/** The ajv validator of gateway.yaml's shape by a config schema (the committed schemas/gateway.schema.json by default), compiled once per schema. */
export function getShapeValidator(schema: object = gatewaySchema): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = defineShapeAjv(false).compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

/**
 * The same validator as ajv's standalone code: a CommonJS module exporting it (its runtime helpers and
 * formats required from ajv and ajv-formats), which the build caches instead of compiling the schema each run.
 */
export function writeShapeValidatorCode(schema: object): string {
  const ajv = defineShapeAjv(true);
  return standaloneCode(ajv, ajv.compile(schema));
}
