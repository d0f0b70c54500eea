import type { ErrorObject, ValidateFunction } from 'ajv';
import { checkTransformOps } from '../transforms/index.ts';
import { checkNativeRoutes } from './check-native.ts';
import { checkRequestFacts } from './check-request-facts.ts';
import { MAX_TOKENS_FIELD_PROTOCOLS, RESPONSES_STATE_PROTOCOLS } from '../../generated/protocols.ts';
import type { SchemaGatewayFile, SchemaRequestFacts, SchemaTargetRef } from '../../generated/config-types.ts';
import { getTargetVendor } from './get-target-vendor.ts';
import { parseDuration } from './units.ts';
import type { LoadedConfig, Problem } from './load.ts';

type Path = (string | number)[];

function toPath(instancePath: string): Path {
  if (!instancePath) return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

function describe(error: ErrorObject): { path: Path; message: string } {
  const path = toPath(error.instancePath);
  const params = error.params as Record<string, any>;
  if (error.keyword === 'additionalProperties') {
    return { path: [...path, params.additionalProperty], message: `unknown field "${params.additionalProperty}"` };
  }
  if (error.keyword === 'enum') return { path, message: `must be one of: ${params.allowedValues.join(', ')}` };
  if (error.keyword === 'required') return { path, message: `missing required field "${params.missingProperty}"` };
  if (error.keyword === 'pattern') return { path, message: `"${String(error.data)}" does not match ${params.pattern}` };
  return { path, message: error.message ?? 'is invalid' };
}

/** Schema problems, keeping only the most specific error of each place (oneOf noise dropped). */
function checkShape(loaded: LoadedConfig, validate: ValidateFunction): Problem[] {
  if (validate(loaded.value)) return [];
  const errors = (validate.errors ?? []).map(describe);
  const specific = errors.filter((error, index) => {
    const key = error.path.join('/');
    const generic = /must match (exactly one|a) schema|must be (equal to constant|object|string)/.test(error.message);
    const deeper = errors.some((other, j) => j !== index && other.path.join('/').startsWith(key) && other.path.length > error.path.length);
    return !(generic && deeper) && !(generic && errors.some((o, j) => j !== index && o.path.join('/') === key && !/must match|constant/.test(o.message)));
  });
  const seen = new Set<string>();
  return specific.flatMap(({ path, message }) => {
    const text = `${path.join('.') || '(root)'}: ${message}`;
    if (seen.has(text)) return [];
    seen.add(text);
    return [{ file: loaded.file, ...loaded.locate(path), message: text }];
  });
}

/** References between sections: vendors, models, transforms, schemas, routes (of a config whose shape passed). */
function checkReferences(loaded: LoadedConfig, schemaIds: ReadonlySet<string>): Problem[] {
  const config = loaded.value as SchemaGatewayFile;
  const problems: Problem[] = [];
  const report = (path: Path, message: string) =>
    problems.push({ file: loaded.file, ...loaded.locate(path), message: `${path.join('.')}: ${message}` });
  const vendors = config.vendors ?? {};
  const models = config.models ?? {};
  const transforms = config.transforms ?? {};

  const checkRanges = (path: Path, ranges: SchemaRequestFacts['ranges']) => {
    for (const [field, range] of Object.entries(ranges ?? {})) {
      if (typeof range.min === 'number' && typeof range.max === 'number' && range.min > range.max) {
        report([...path, 'request', 'ranges', field], `min ${range.min} is above max ${range.max}`);
      }
    }
  };
  for (const [name, vendor] of Object.entries(vendors)) {
    checkRanges(['vendors', name], vendor.request?.ranges);
    if (vendor.request?.max_tokens_field !== undefined && !MAX_TOKENS_FIELD_PROTOCOLS.includes(vendor.protocol)) {
      report(['vendors', name, 'request', 'max_tokens_field'], `only vendors of protocol ${MAX_TOKENS_FIELD_PROTOCOLS.join(' or ')} choose the field (this one speaks ${vendor.protocol})`);
    }
    if (vendor.responses?.state === 'vendor' && !RESPONSES_STATE_PROTOCOLS.includes(vendor.protocol)) {
      report(['vendors', name, 'responses', 'state'], `only vendors of protocol ${RESPONSES_STATE_PROTOCOLS.join(' or ')} keep Responses state (this one speaks ${vendor.protocol}): the gateway keeps it`);
    }
    let url: URL | undefined;
    try {
      url = new URL(vendor.base_url);
    } catch {
      report(['vendors', name, 'base_url'], `invalid URL "${vendor.base_url}"`);
    }
    if (url && url.protocol !== 'https:' && url.protocol !== 'http:') {
      report(['vendors', name, 'base_url'], `URL must be http or https, got "${url.protocol}"`);
    }
  }
  const checkTarget = (path: Path, ref: SchemaTargetRef) => {
    if (typeof ref === 'string' || !('vendor' in ref)) {
      const id = typeof ref === 'string' ? ref : ref.model;
      if (!(id in models)) report(path, `unknown model "${id}"`);
      else if (!models[id].vendor) report(path, `model "${id}" has no vendor of its own to target`);
    } else if (!(ref.vendor in vendors)) {
      report([...path, 'vendor'], `unknown vendor "${ref.vendor}"`);
    }
  };
  for (const [id, model] of Object.entries(models)) {
    checkRanges(['models', id], model.request?.ranges);
    if (model.vendor !== undefined && !(model.vendor in vendors)) report(['models', id, 'vendor'], `unknown vendor "${model.vendor}"`);
    if (model.vendor === undefined && !model.targets) report(['models', id], 'needs a vendor or targets');
    if (model.vendor !== undefined && model.targets) report(['models', id, 'targets'], 'give either vendor or targets, not both');
    (model.targets ?? []).forEach((ref, i) => checkTarget(['models', id, 'targets', i], ref));
    (model.fallback ?? []).forEach((ref, i) => checkTarget(['models', id, 'fallback', i], ref));
    if (model.responses?.state === 'vendor') {
      const named = [model.vendor, ...[...(model.targets ?? []), ...(model.fallback ?? [])].map((ref) => getTargetVendor(models, ref))];
      const other = named.find((name) => typeof name === 'string' && vendors[name] && !RESPONSES_STATE_PROTOCOLS.includes(vendors[name].protocol));
      if (other) report(['models', id, 'responses', 'state'], `vendor "${other}" speaks ${vendors[other].protocol}, which keeps no Responses state: only the gateway can`);
    }
    const transform = model.images?.transform;
    if (transform !== undefined && !(transform in transforms)) {
      report(['models', id, 'images', 'transform'], `unknown transform "${transform}"`);
    }
  }
  for (const [name, ops] of Object.entries(transforms)) {
    for (const problem of checkTransformOps(ops)) report(['transforms', name, ...problem.path], problem.message);
  }
  const seenRoutes = new Map<string, number>();
  (config.routes ?? []).forEach((route, i) => {
    const key = `${route.method} ${route.path}`;
    if (seenRoutes.has(key)) report(['routes', i, 'path'], `duplicate route ${key} (first at routes.${seenRoutes.get(key)})`);
    seenRoutes.set(key, i);
    if (route.schema !== undefined && !schemaIds.has(route.schema)) {
      report(['routes', i, 'schema'], `unknown schema "${route.schema}" (none in schemas/endpoints/)`);
    }
    const model = String(route.model ?? 'none');
    if (model.startsWith('path.') && !route.path.includes(`{${model.slice(5)}}`)) {
      report(['routes', i, 'model'], `path has no parameter {${model.slice(5)}}`);
    }
  });
  checkNativeRoutes(config, report);
  checkRequestFacts(config, report);
  if (config.server?.limit_window !== undefined && parseDuration(config.server.limit_window) < 1) {
    report(['server', 'limit_window'], 'must be longer than 0');
  }
  if (config.server?.console === true && !config.server.admin) report(['server', 'console'], 'the console is served on the admin listener: set server.admin too');
  const keyNames = new Set<string>();
  (config.keys ?? []).forEach((key, i) => {
    if (keyNames.has(key.name)) report(['keys', i, 'name'], `duplicate key name "${key.name}"`);
    keyNames.add(key.name);
  });
  return problems;
}

/**
 * Every problem of a loaded config: YAML syntax, shape (by `validate`, a config schema's validator: see
 * shape-validator.ts; the build's is that of the schema it just composed), then cross-references.
 */
export function checkConfig(loaded: LoadedConfig, schemaIds: ReadonlySet<string>, validate: ValidateFunction): Problem[] {
  if (loaded.problems.length) return loaded.problems;
  const shape = checkShape(loaded, validate);
  if (shape.length) return shape;
  return checkReferences(loaded, schemaIds);
}

/** Formats a problem as `file:line:col: message`. */
export function formatProblem(problem: Problem): string {
  return `${problem.file}:${problem.line}:${problem.col}: ${problem.message}`;
}
