import fc from 'fast-check';

/** The names Object.prototype answers to: a lookup table written as an object literal finds them too. */
export const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'] as const;

/**
 * Values nobody should send where a field belongs, the ones that break careless code first: wrong types,
 * extremes, a lone surrogate, prototype names as strings, an object whose `toString` is null (what
 * JSON.parse gives for `{"toString":null}`: `String()` and template literals throw on it), any JSON.
 */
export const arbitraryOddJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, -1, 0, 1.5, 1e308, -1e308, '', '\u0000', '\ud800', '<script>', [], {}, [[[[]]]], 'x'.repeat(5000)),
  fc.constantFrom<unknown>(...PROTOTYPE_NAMES, { toString: null, valueOf: null }, [{ toString: null }], { constructor: 1, __proto__: null }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** One change to a parsed JSON value: a node replaced by an odd value, or removed. */
export interface JsonChange {
  /** Which node (its index among all nodes below the root, depth first, modulo their count). */
  at: number;
  remove: boolean;
  value: unknown;
}

/** A change to any node of a JSON value. */
export const arbitraryJsonChange: fc.Arbitrary<JsonChange> = fc.record({ at: fc.nat(), remove: fc.boolean(), value: arbitraryOddJson });

type Parent = Record<string, unknown> | unknown[];

/** Every node below the root as [parent, key] pairs, depth first. */
function listNodes(value: unknown, into: [Parent, string | number][] = []): [Parent, string | number][] {
  if (Array.isArray(value)) value.forEach((item, i) => (into.push([value, i]), listNodes(item, into)));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) (into.push([value as Record<string, unknown>, key]), listNodes(item, into));
  return into;
}

/**
 * `json` (changed in place) with `changes` applied in order; a root with no nodes below it is replaced.
 * Values are set as own properties, so a `__proto__` key stays a key, as JSON.parse would make it.
 */
export function applyJsonChanges(json: unknown, changes: JsonChange[]): unknown {
  for (const change of changes) {
    const nodes = listNodes(json);
    if (nodes.length === 0) {
      json = structuredClone(change.value);
      continue;
    }
    const [parent, key] = nodes[change.at % nodes.length];
    if (change.remove && Array.isArray(parent)) parent.splice(key as number, 1);
    else if (change.remove) delete (parent as Record<string, unknown>)[key];
    // A copy: the odd values are shared constants, and a later change inside one must not make a cycle.
    else Object.defineProperty(parent, key, { value: structuredClone(change.value), enumerable: true, writable: true, configurable: true });
  }
  return json;
}
