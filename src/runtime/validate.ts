import { validatorsBySchemaId } from '../../generated/validators.mjs';
import { GatewayError } from '../errors.ts';

/** A generated ajv validator function. */
type Validator = ((data: unknown) => boolean) & { errors?: { instancePath: string; keyword: string; message?: string; params: any }[] | null };

/** The generated validators, keyed by the schema ids the route table names (no name mangling at run time). */
const VALIDATORS = new Map<string, Validator>(Object.entries(validatorsBySchemaId as Record<string, Validator>));

/** Checks a parsed body against a request schema; throws 400 naming the failing field. */
export function validateBody(schemaId: string, body: unknown): void {
  const validate = VALIDATORS.get(schemaId);
  if (!validate) throw new GatewayError(500, 'missing_validator', `No validator for schema ${schemaId}; run npm run build.`);
  if (validate(body)) return;
  const error = validate.errors![0];
  const path = error.instancePath.slice(1).replace(/\//g, '.');
  const field = error.keyword === 'required' ? (path ? `${path}.` : '') + error.params.missingProperty : path;
  const message =
    error.keyword === 'required' ? `Missing required field "${field}".` : `Invalid field "${field}": ${error.message}.`;
  throw new GatewayError(400, 'invalid_request', message, { param: field });
}
