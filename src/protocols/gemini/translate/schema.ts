/**
 * JSON Schema <-> the generate-content protocol's schema subset (its OpenAPI-3.0-style `Schema`).
 *
 * Decision: tool parameters go to that protocol as `parameters` (the subset), not `parametersJsonSchema`,
 * because every model version of the API accepts `parameters`, while `parametersJsonSchema` is newer and
 * its accepted keywords vary. The conversion rule (JSON Schema -> subset):
 * 1. `$ref` to a local JSON pointer (`#`, `#/$defs/X`, `#/definitions/X`, any `#/...`) is inlined, with
 *    the referring schema's other keywords laid over the target. A reference to a schema that is already
 *    being expanded (a recursive type), one past {@link MAX_REF_DEPTH} nested expansions, or one beyond
 *    {@link MAX_REF_EXPANSIONS} per schema becomes `{type: OBJECT}` carrying the target's description:
 *    the recursion is cut and the model may fill that level freely. Unresolvable references become `{}`.
 * 2. `type` is upper-cased; `[T, "null"]` becomes `T` with `nullable: true`; several non-null types become
 *    `anyOf`. `oneOf` becomes `anyOf` (null branches set `nullable`). `allOf` is merged into one schema.
 *    `const` becomes a one-value `enum`.
 * 3. `enum` is kept on strings (values as strings); on other types it is dropped and its values are
 *    appended to the description ("Allowed values: 1, 2").
 * 4. `format` is kept only where the subset allows it (string: enum, date-time; integer: int32, int64;
 *    number: float, double).
 * 5. Kept: description, title, nullable, properties, required (names present in properties only), items
 *    (the first of a tuple), anyOf, min/maxItems, min/maxLength, pattern, minimum, maximum,
 *    min/maxProperties, default, example (or the first of `examples`), propertyOrdering. Every other keyword
 *    (additionalProperties, $schema, $defs, exclusiveMinimum, multipleOf, uniqueItems, not, if/then/else,
 *    patternProperties, ...) is dropped: these only narrow validation, so the call still works. This
 *    never triggers strict-mode rejection.
 * 6. `properties: {}` is omitted (the API rejects an empty properties map).
 */
import { isRecord } from '../../../translate/helpers.ts';
import { readOwn } from '../../../lib/read-own.ts';
import { toText } from '../../../lib/to-text.ts';
import { setOwn } from '../../../lib/set-own.ts';

/** Nested `$ref` expansions followed before a reference is cut to `{type: OBJECT}`. */
export const MAX_REF_DEPTH = 16;
/** `$ref` expansions in one schema before further references are cut (guards exponential fan-out). */
export const MAX_REF_EXPANSIONS = 500;

type Schema = Record<string, any>;

const COPIED = [
  'description', 'title', 'minItems', 'maxItems', 'minLength', 'maxLength', 'pattern', 'minimum',
  'maximum', 'minProperties', 'maxProperties', 'default', 'example', 'propertyOrdering',
] as const;

const FORMATS: Record<string, ReadonlySet<string>> = {
  STRING: new Set(['enum', 'date-time']),
  INTEGER: new Set(['int32', 'int64']),
  NUMBER: new Set(['float', 'double']),
};

interface ConvertState {
  root: Schema;
  stack: string[];
  expansions: number;
}

/** Converts a JSON Schema to the generate-content schema subset by the rule above. */
export function toGeminiSchema(schema: unknown): Schema {
  const root = isRecord(schema) ? schema : {};
  return convert(root, { root, stack: [], expansions: 0 });
}

function convert(schema: unknown, state: ConvertState): Schema {
  if (!isRecord(schema)) return {};
  if (typeof schema.$ref === 'string') return convertRef(schema, state);
  if (Array.isArray(schema.allOf)) return convert(mergeAllOf(schema), state);
  const types = readTypes(schema);
  const nonNull = types.filter((type) => type !== 'null');
  const nullable = types.includes('null') || schema.nullable === true;
  if (nonNull.length > 1) {
    const anyOf = nonNull.map((type) => convert({ ...schema, type, description: undefined }, state));
    return withExtras({ anyOf }, schema, nullable);
  }
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union) && nonNull.length === 0) return convertUnion(union, schema, nullable, state);
  const out: Schema = {};
  const type = nonNull[0] ?? inferType(schema);
  if (type) out.type = type.toUpperCase();
  copyKeywords(out, schema);
  if (nullable) out.nullable = true;
  convertEnum(out, schema);
  convertFormat(out, schema);
  convertChildren(out, schema, state);
  return out;
}

function convertRef(schema: Schema, state: ConvertState): Schema {
  const ref: string = schema.$ref;
  const { $ref: _ref, ...siblings } = schema;
  const target = resolvePointer(state.root, ref);
  if (target === undefined) return convert(siblings, state);
  const cut = state.stack.includes(ref) || state.stack.length >= MAX_REF_DEPTH || state.expansions >= MAX_REF_EXPANSIONS;
  if (cut) {
    const description = siblings.description ?? target.description;
    return description === undefined ? { type: 'OBJECT' } : { type: 'OBJECT', description };
  }
  state.expansions += 1;
  state.stack.push(ref);
  try {
    return convert({ ...target, ...siblings }, state);
  } finally {
    state.stack.pop();
  }
}

function convertUnion(union: unknown[], schema: Schema, nullable: boolean, state: ConvertState): Schema {
  let isNullable = nullable;
  const branches: Schema[] = [];
  for (const branch of union) {
    if (isRecord(branch) && branch.type === 'null') isNullable = true;
    else branches.push(convert(branch, state));
  }
  if (branches.length === 1) {
    const only = { ...branches[0] };
    if (schema.description !== undefined) only.description = schema.description;
    if (isNullable) only.nullable = true;
    return only;
  }
  return withExtras({ anyOf: branches }, schema, isNullable);
}

function withExtras(out: Schema, schema: Schema, nullable: boolean): Schema {
  if (schema.description !== undefined) out.description = schema.description;
  if (schema.title !== undefined) out.title = schema.title;
  if (nullable) out.nullable = true;
  return out;
}

function readTypes(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((type: unknown): type is string => typeof type === 'string');
  return [];
}

function inferType(schema: Schema): string | undefined {
  if (isRecord(schema.properties)) return 'object';
  if (schema.items !== undefined || schema.prefixItems !== undefined) return 'array';
  if (schema.const !== undefined) return typeof schema.const === 'string' ? 'string' : undefined;
  if (Array.isArray(schema.enum) && schema.enum.every((value: unknown) => typeof value === 'string')) return 'string';
  return undefined;
}

function copyKeywords(out: Schema, schema: Schema): void {
  for (const key of COPIED) {
    if (schema[key] !== undefined) out[key] = schema[key];
  }
  if (out.example === undefined && Array.isArray(schema.examples) && schema.examples.length > 0) {
    out.example = schema.examples[0];
  }
}

function convertEnum(out: Schema, schema: Schema): void {
  const values: unknown[] | undefined = schema.const !== undefined ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
  if (!values) return;
  const nonNull = values.filter((value) => value !== null);
  if (nonNull.length < values.length) out.nullable = true;
  if (out.type === 'STRING') {
    // A string enum's values as strings: a string as it is, anything else (a number, an object) as its JSON.
    out.enum = nonNull.map(toText);
    return;
  }
  const list = nonNull.map((value) => JSON.stringify(value)).join(', ');
  out.description = out.description ? `${out.description} (Allowed values: ${list})` : `Allowed values: ${list}`;
}

function convertFormat(out: Schema, schema: Schema): void {
  if (typeof schema.format !== 'string' || typeof out.type !== 'string') return;
  if (readOwn(FORMATS, out.type)?.has(schema.format)) out.format = schema.format;
}

function convertChildren(out: Schema, schema: Schema, state: ConvertState): void {
  if (isRecord(schema.properties)) {
    const properties: Schema = {};
    for (const [name, child] of Object.entries(schema.properties)) setOwn(properties, name, convert(child, state));
    if (Object.keys(properties).length > 0) out.properties = properties;
    if (Array.isArray(schema.required)) {
      const required = schema.required.filter((name: unknown) => typeof name === 'string' && name in properties);
      if (required.length > 0) out.required = required;
    }
  }
  const items = Array.isArray(schema.items) ? schema.items[0] : schema.items ?? (Array.isArray(schema.prefixItems) ? schema.prefixItems[0] : undefined);
  if (items !== undefined) out.items = convert(items, state);
}

/** Merges `allOf` members into one schema (properties and required are unioned; later keywords win). */
function mergeAllOf(schema: Schema): Schema {
  const { allOf, ...rest } = schema;
  const merged: Schema = {};
  const properties: Schema = {};
  const required: string[] = [];
  for (const part of [...(allOf as unknown[]), rest]) {
    if (!isRecord(part)) continue;
    Object.assign(properties, isRecord(part.properties) ? part.properties : {});
    if (Array.isArray(part.required)) required.push(...part.required);
    Object.assign(merged, part);
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.length > 0) merged.required = [...new Set(required)];
  return merged;
}

/** Resolves a local JSON pointer (`#`, `#/a/b`) in `root`; undefined when it does not resolve to a schema. */
function resolvePointer(root: Schema, ref: string): Schema | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isRecord(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return isRecord(node) ? node : undefined;
}

const COUNT_KEYWORDS = new Set(['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties']);

/** Converts a generate-content schema back to JSON Schema (lower-case types, `nullable` as a null type). */
export function fromGeminiSchema(schema: unknown): Schema {
  if (!isRecord(schema)) return {};
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' || key === 'nullable' || key === 'propertyOrdering') continue;
    if (key === 'properties' && isRecord(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, fromGeminiSchema(child)]));
    } else if (key === 'items') {
      out.items = fromGeminiSchema(value);
    } else if (key === 'anyOf' && Array.isArray(value)) {
      out.anyOf = value.map(fromGeminiSchema);
    } else if (COUNT_KEYWORDS.has(key) && typeof value === 'string') {
      out[key] = Number(value);
    } else {
      setOwn(out, key, value);
    }
  }
  const type = typeof schema.type === 'string' && schema.type !== 'TYPE_UNSPECIFIED' ? schema.type.toLowerCase() : undefined;
  if (type) out.type = schema.nullable === true ? [type, 'null'] : type;
  return out;
}
