import { describe, expect, it } from 'vitest';
import { checkFieldPath, deleteAt, getAt, readPath, setAt } from '../../src/transforms/path.ts';

describe('dot paths', () => {
  it('reads nested values and answers undefined for anything missing', () => {
    const body = { a: { b: { c: 0 } }, s: 'x' };
    expect(getAt(body, readPath('a.b.c'))).toBe(0);
    expect(getAt(body, readPath('a.x.c'))).toBeUndefined();
    expect(getAt(body, readPath('s.length'))).toBeUndefined();
  });

  it('does not read inherited properties', () => {
    expect(getAt({}, readPath('toString'))).toBeUndefined();
    expect(getAt({ a: {} }, readPath('a.constructor'))).toBeUndefined();
  });

  it('copies only the objects along the path when setting', () => {
    const other = { keep: true };
    const body = { a: { b: 1 }, other };
    const result = setAt(body, readPath('a.c'), 2);
    expect(result).toEqual({ a: { b: 1, c: 2 }, other });
    expect(result.other).toBe(other);
    expect(body.a).toEqual({ b: 1 });
  });

  it('replaces a null on the way with a new object', () => {
    expect(setAt({ a: null }, readPath('a.b'), 1)).toEqual({ a: { b: 1 } });
  });

  it('deletes without touching the original', () => {
    const body = { a: { b: 1, c: 2 } };
    expect(deleteAt(body, readPath('a.b'))).toEqual({ a: { c: 2 } });
    expect(body).toEqual({ a: { b: 1, c: 2 } });
  });

  it('accepts identifiers joined by dots and nothing else', () => {
    expect(checkFieldPath('parameters.size')).toBeUndefined();
    for (const bad of ['', '.a', 'a.', 'a..b', 'a b', '1a', 'a[0]', 42, 'constructor', 'a.prototype']) {
      expect(checkFieldPath(bad)).toBeTypeOf('string');
    }
  });
});
