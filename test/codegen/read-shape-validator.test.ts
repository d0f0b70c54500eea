import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readComposedConfigSchema } from '../../scripts/build.ts';
import { readShapeValidator } from '../../src/codegen/read-shape-validator.ts';
import { getShapeValidator } from '../../src/config/shape-validator.ts';

/** gateway.yaml's value: the base every generated config changes one place of. */
const BASE = parse(readFileSync('gateway.yaml', 'utf8'));

/** Every path to a value in `value` (objects' keys, arrays' indexes). */
function listPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (!value || typeof value !== 'object') return [path];
  const children = Array.isArray(value) ? value.map((item, i) => [i, item] as const) : Object.entries(value);
  return [path, ...children.flatMap(([key, child]) => listPaths(child, [...path, key]))];
}

const PATHS = listPaths(BASE).filter((path) => path.length > 0);

/** A copy of `base` with the value at `path` replaced (or, for `undefined`, deleted). */
function replaceAt(base: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(base) as any;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  const last = path[path.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = value;
  return copy;
}

/** Values a config's place may wrongly hold: other types, near-miss strings, unknown fields. */
const wrongValue = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom('', 'env:', 'env:lower_case', 'https://x', 'not a url', '10q', '-1', 'openai', 'POST', 'chat', '*'),
  fc.dictionary(fc.constantFrom('vendor', 'vendr', 'targets', 'bearer', 'header', 'value', 'rpm', 'x'), fc.jsonValue({ maxDepth: 1 }), { minKeys: 1 }),
);

describe('the build\'s cached shape validator', () => {
  it('answers any config, valid or not, with the errors the compiled validator gives', async () => {
    const schemaText = await readComposedConfigSchema();
    const cached = await readShapeValidator(schemaText);
    const compiled = getShapeValidator(JSON.parse(schemaText));
    expect(cached).not.toBe(compiled);
    fc.assert(fc.property(fc.constantFrom(...PATHS), wrongValue, (path, value) => {
      const config = replaceAt(BASE, path, value);
      expect(cached(config)).toBe(compiled(config));
      expect(cached.errors ?? null).toEqual(compiled.errors ?? null);
    }), { numRuns: 2_000 });
  }, 60_000);

  it('is read again from the cache, not compiled, once written', async () => {
    const schemaText = await readComposedConfigSchema();
    expect(await readShapeValidator(schemaText)).toBe(await readShapeValidator(schemaText));
  });
});
