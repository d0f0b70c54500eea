import type { ValidateFunction } from 'ajv';
import { Ajv, addFormats } from '../../lib/ajv.ts';
import gatewaySchema from '../../../schemas/gateway.schema.json' with { type: 'json' };
import { GatewayError } from '../../errors.ts';

let validateKey: ValidateFunction | undefined;

/** The validator of one `keys:` entry of gateway.yaml, from gateway.yaml's own schema (compiled once, on first use). */
function getKeyValidator(): ValidateFunction {
  if (!validateKey) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    ajv.addSchema(gatewaySchema, 'gateway');
    validateKey = ajv.compile({ $ref: 'gateway#/definitions/key' });
  }
  return validateKey;
}

/**
 * Checks a key entry as gateway.yaml would have it (name, key or sha256, models, limits, budget) against
 * gateway.yaml's schema; throws 400 `invalid_override` naming each problem, so a console change can never
 * be something the file could not say.
 */
export function checkKeyEntry(entry: Record<string, unknown>): void {
  const infinite = findInfinite(entry, '');
  if (infinite !== undefined) throw new GatewayError(400, 'invalid_override', `The change is not a valid gateway.yaml key: ${infinite}: must be a finite number.`);
  const validate = getKeyValidator();
  if (validate(entry)) return;
  const problems = (validate.errors ?? [])
    .filter((error) => !/must match (exactly one|a) schema|must match "(then|else)" schema/.test(error.message ?? ''))
    .map((error) => `${error.instancePath.slice(1).replace(/\//g, '.') || 'key'}: ${error.message}`);
  throw new GatewayError(400, 'invalid_override', `The change is not a valid gateway.yaml key: ${[...new Set(problems)].join('; ')}.`);
}

/** The dot path of the first number that is not finite (JSON such as 1e400 reads as Infinity; the schema lets it by). */
function findInfinite(value: unknown, path: string): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path || 'key';
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [name, item] of Object.entries(value)) {
    const found = findInfinite(item, path ? `${path}.${name}` : name);
    if (found !== undefined) return found;
  }
  return undefined;
}
