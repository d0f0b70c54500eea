import * as generated from '../../generated/validators.mjs';
import { getValidatorName } from '../codegen/names.ts';
import { GatewayError } from '../errors.ts';

/** A generated ajv validator function. */
type Validator = ((data: unknown) => boolean) & { errors?: { instancePath: string; keyword: string; message?: string; params: any }[] | null };


const VALIDATORS = new Map<string, Validator>(
  Object.entries(generated as Record<string, Validator>).map(([name, fn]) => [name, fn]),
);

/** Validators by schema id, filled on first use (no name mangling per request). */
const BY_SCHEMA_ID = new Map<string, Validator>();

function findValidator(schemaId: string): Validator | undefined {
  const validate = VALIDATORS.get(getValidatorName(schemaId));
  if (validate) BY_SCHEMA_ID.set(schemaId, validate);
  return validate;
}

/** Checks a parsed body against a request schema; throws 400 naming the failing field. */
export function validateBody(schemaId: string, body: unknown): void {
  const validate = BY_SCHEMA_ID.get(schemaId) ?? findValidator(schemaId);
  if (!validate) throw new GatewayError(500, 'missing_validator', `No validator for schema ${schemaId}; run npm run build.`);
  if (validate(body)) return;
  const error = validate.errors![0];
  const path = error.instancePath.slice(1).replace(/\//g, '.');
  const field = error.keyword === 'required' ? (path ? `${path}.` : '') + error.params.missingProperty : path;
  const message =
    error.keyword === 'required' ? `Missing required field "${field}".` : `Invalid field "${field}": ${error.message}.`;
  throw new GatewayError(400, 'invalid_request', message, { param: field });
}
