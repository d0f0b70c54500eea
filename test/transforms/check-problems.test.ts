import { describe, expect, it } from 'vitest';
import { checkTransformOps } from '../../src/transforms/index.ts';
import { mapOp } from '../../src/transforms/map.ts';
import { checkFieldPath, deleteAt, isJsonObject, readPath } from '../../src/transforms/path.ts';

const OPS = 'move, set, default, replace, map, drop';

describe('the exact problems of a transform', () => {
  it('an empty list or a list that is not one is a single problem at the root', () => {
    for (const items of [[], 'move', { move: {} }]) {
      expect(checkTransformOps(items)).toEqual([{ path: [], message: 'a transform is a non-empty list of ops' }]);
    }
  });

  it('an item that is not a mapping with one key names every op', () => {
    for (const item of ['move', {}, { move: { from: 'a', to: 'b' }, drop: { at: 'c' } }, null]) {
      expect(checkTransformOps([item])).toEqual([{ path: [0], message: `each transform op is a mapping with exactly one key: ${OPS}` }]);
    }
  });

  it('an op whose arguments are not a mapping names its fields', () => {
    expect(checkTransformOps([{ drop: { at: 'a' } }, { replace: 'size' }])).toEqual([
      { path: [1, 'replace'], message: 'replace takes a mapping of at, find, with' },
    ]);
  });

  it('each field is checked against its rule, in the order of the fields', () => {
    expect(checkTransformOps([{ replace: { find: '', with: 3 } }, { map: { at: 'q', values: 'x' } }, { set: { at: 'a' } }, { default: { value: 1 } }])).toEqual([
      { path: [0, 'replace', 'at'], message: 'replace.at: required' },
      { path: [0, 'replace', 'find'], message: 'replace.find: must be a non-empty string' },
      { path: [0, 'replace', 'with'], message: 'replace.with: must be a string' },
      { path: [1, 'map', 'values'], message: 'map.values: must be a mapping' },
      { path: [2, 'set', 'value'], message: 'set.value: required' },
      { path: [3, 'default', 'at'], message: 'default.at: required' },
    ]);
  });

  it('a field no op has is named', () => {
    expect(checkTransformOps([{ drop: { at: 'a', from: 'b' } }])).toEqual([{ path: [0, 'drop', 'from'], message: 'drop has no field "from"' }]);
  });

  it("an op's own check runs only once its fields are valid, and points at its field", () => {
    expect(checkTransformOps([{ move: { from: 'a', to: 'a' } }])).toEqual([
      { path: [0, 'move', 'to'], message: 'move: move needs a `to` different from `from`' },
    ]);
    expect(checkTransformOps([{ move: { from: 'a', to: 'a', at: 'x' } }])).toEqual([{ path: [0, 'move', 'at'], message: 'move has no field "at"' }]);
  });

  it('rejects the field rules each op declares', () => {
    expect(checkTransformOps([{ move: { from: 'a', to: 'b c' } }])[0].path).toEqual([0, 'move', 'to']);
    expect(checkTransformOps([{ drop: { at: '1x' } }])[0].path).toEqual([0, 'drop', 'at']);
    expect(checkTransformOps([{ map: { at: 'a.', values: {} } }])[0].path).toEqual([0, 'map', 'at']);
    expect(checkTransformOps([{ default: { at: '', value: 1 } }])[0].path).toEqual([0, 'default', 'at']);
    expect(checkTransformOps([{ replace: { at: 'a', find: 'x', with: null } }])[0].path).toEqual([0, 'replace', 'with']);
    expect(checkTransformOps([{ replace: { at: 'a', find: 3, with: 'x' } }])[0].path).toEqual([0, 'replace', 'find']);
    expect(checkTransformOps([{ replace: { at: '1x', find: 'x', with: 'y' } }])[0].path).toEqual([0, 'replace', 'at']);
    expect(checkTransformOps([{ set: { at: 'a', value: null } }, { default: { at: 'b', value: 'x' } }])).toEqual([]);
  });
});

describe('values that are not what a path or a map expects', () => {
  it('a field path must be a string, even one whose text would pass', () => {
    expect(checkFieldPath(['parameters'])).toBe('["parameters"] is not a field path (names joined by dots, e.g. parameters.size)');
  });

  it('null is not a JSON object, and a null on the way leaves nothing to delete', () => {
    expect(isJsonObject(null)).toBe(false);
    const body = { input: null };
    expect(deleteAt(body, readPath('input.parameters.size'))).toBe(body);
  });

  it('map leaves null and objects as they are, even when the table has their text', () => {
    const op = { op: 'map' as const, at: 'quality', values: { null: 'was null', '[object Object]': 'was object' } };
    expect(mapOp.apply({ quality: null }, op)).toEqual({ quality: null });
    expect(mapOp.apply({ quality: {} }, op)).toEqual({ quality: {} });
  });
});
