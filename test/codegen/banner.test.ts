import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stableJson } from '../../src/codegen/banner.ts';

/** stableJson as it was written first: every object copied with its keys sorted, every array mapped. */
function referenceStableJson(value: unknown, indent = 2): string {
  const sortKeys = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(sortKeys);
    if (item && typeof item === 'object') {
      return Object.fromEntries(
        Object.keys(item as object)
          .sort()
          .map((key) => [key, sortKeys((item as Record<string, unknown>)[key])]),
      );
    }
    return item;
  };
  return JSON.stringify(sortKeys(value), null, indent);
}

/** Keys that sort unlike their place in an object: integer-like ones (listed first, by value), mixed case, prefixes. */
const key = fc.oneof(fc.string(), fc.constantFrom('0', '1', '2', '9', '10', '01', '-1', '1.5', 'a', 'B', 'b', 'ab', '__proto__', 'toJSON', 'constructor'));

/** Objects with their keys in order already, nested among unsorted ones. */
const sortedObject = (member: fc.Arbitrary<unknown>) =>
  fc.dictionary(key, member).map((record) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));

const values = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, undefined, true, false, 0, -0, 1.5, NaN, Infinity, '', 'text'),
    fc.string(),
    fc.double(),
    fc.array(tie('value')),
    fc.sparseArray(tie('value')),
    fc.dictionary(key, tie('value')),
    sortedObject(tie('value')),
    fc.dictionary(key, tie('value')).map((record) => Object.assign(Object.create(null), record)),
    fc.date().map((date) => ({ at: date })),
    fc.constant({ toJSON: () => 'custom' }),
    fc.constant(new Map([['a', 1]])),
  ),
})).value;

describe('stableJson', () => {
  it('writes any value byte for byte as the copy-everything sort does', () => {
    fc.assert(fc.property(values, fc.constantFrom(0, 2, 4), (value, indent) => {
      expect(stableJson(value, indent)).toBe(referenceStableJson(value, indent));
    }), { numRuns: 5_000 });
  });

  it('writes anything fast-check makes as the copy-everything sort does', () => {
    const anything = fc.anything({ withNullPrototype: true, withObjectString: true, withSparseArray: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withBoxedValues: true });
    fc.assert(fc.property(anything, (value) => {
      expect(stableJson(value)).toBe(referenceStableJson(value));
    }), { numRuns: 5_000 });
  });

  it('sorts objects of a few shapes (the same first key, other keys or order after it) as the copy-everything sort does', () => {
    const shapes = [['id', 'b', 'a'], ['id', 'a', 'b'], ['id', 'b'], ['id', 'b', 'a', 'c'], ['id', 'a', 'c'], ['id', 'z', 'c'], ['z', 'y'], ['z'], ['10', '9', 'a']];
    const shaped = fc.constantFrom(...shapes).chain((keys) => fc.tuple(...keys.map(() => fc.oneof(fc.integer(), fc.constant({ y: 1, x: 2 })))).map((members) => Object.fromEntries(keys.map((k, i) => [k, members[i]]))));
    fc.assert(fc.property(fc.array(shaped, { maxLength: 30 }), (value) => {
      expect(stableJson(value)).toBe(referenceStableJson(value));
    }), { numRuns: 2_000 });
  });

  it('leaves the value it writes unchanged', () => {
    fc.assert(fc.property(values, (value) => {
      const before = referenceStableJson(value);
      stableJson(value);
      expect(referenceStableJson(value)).toBe(before);
    }), { numRuns: 1_000 });
  });

  it.each([
    [{ b: 1, a: { d: [1, { z: 1, y: 2 }], c: 2 } }, '{"a":{"c":2,"d":[1,{"y":2,"z":1}]},"b":1}'],
    [{ 10: 'x', 9: 'y', a: 'z' }, '{"9":"y","10":"x","a":"z"}'],
    [{ a: undefined, b: [undefined, () => 1] }, '{"b":[null,null]}'],
    [{ at: new Date(0) }, '{"at":{}}'],
  ])('writes %j as %s', (value, text) => {
    expect(stableJson(value, 0)).toBe(text);
  });
});
