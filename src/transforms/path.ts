import { GatewayError } from '../errors.ts';

/** A parsed dot path (`parameters.size` -> `['parameters', 'size']`). */
export type PathSegments = readonly string[];

/** A JSON object as the transform ops see it. */
export type JsonObject = Record<string, unknown>;

/** What a field path may look like: identifiers joined by dots (the same rule as the config schema). */
const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
/** Segments that would reach an object's prototype instead of a field. */
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

const parsed = new Map<string, PathSegments>();

/** Why `path` is not a usable field path, or undefined when it is. */
export function checkFieldPath(path: unknown): string | undefined {
  if (typeof path !== 'string' || !FIELD_PATH.test(path)) {
    return `${JSON.stringify(path)} is not a field path (names joined by dots, e.g. parameters.size)`;
  }
  const bad = path.split('.').find((segment) => FORBIDDEN_SEGMENTS.has(segment));
  return bad === undefined ? undefined : `field path ${JSON.stringify(path)} may not use "${bad}"`;
}

/** The segments of a (checked) dot path, split once per distinct path. */
export function readPath(path: string): PathSegments {
  let segments = parsed.get(path);
  if (segments === undefined) {
    segments = Object.freeze(path.split('.'));
    parsed.set(path, segments);
  }
  return segments;
}

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `segments` in `root`, or undefined when any step is missing. */
export function getAt(root: unknown, segments: PathSegments): unknown {
  let node = root;
  for (const segment of segments) {
    if (!isJsonObject(node) || !Object.hasOwn(node, segment)) return undefined;
    node = node[segment];
  }
  return node;
}

/** True when `root` has a value (null included) at `segments`. */
export function hasAt(root: unknown, segments: PathSegments): boolean {
  return getAt(root, segments) !== undefined;
}

/**
 * A copy of `root` with `value` at `segments`. Only the objects along the path are copied; missing
 * objects on the way are created. A non-object in the way is a client error naming that field.
 */
export function setAt(root: JsonObject, segments: PathSegments, value: unknown, depth = 0): JsonObject {
  const key = segments[depth];
  const copy: JsonObject = { ...root };
  if (depth === segments.length - 1) {
    copy[key] = value;
    return copy;
  }
  const child = Object.hasOwn(root, key) ? root[key] : undefined;
  if (child !== undefined && child !== null && !isJsonObject(child)) {
    const field = segments.slice(0, depth + 1).join('.');
    throw new GatewayError(400, 'invalid_type', `\`${field}\` must be an object to hold \`${segments.join('.')}\`.`, { param: field });
  }
  copy[key] = setAt(isJsonObject(child) ? child : {}, segments, value, depth + 1);
  return copy;
}

/** A copy of `root` without the field at `segments` (`root` itself when the field is absent). */
export function deleteAt(root: JsonObject, segments: PathSegments, depth = 0): JsonObject {
  const key = segments[depth];
  if (!Object.hasOwn(root, key)) return root;
  if (depth === segments.length - 1) {
    const { [key]: _removed, ...rest } = root;
    return rest;
  }
  const child = root[key];
  if (!isJsonObject(child)) return root;
  const updated = deleteAt(child, segments, depth + 1);
  return updated === child ? root : { ...root, [key]: updated };
}

/** A private copy of a configured value, so no request can change the config it came from. */
export function copyValue<T>(value: T): T {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}
