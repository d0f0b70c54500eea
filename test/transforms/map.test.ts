import { describe, expect, it } from 'vitest';
import { mapOp } from '../../src/transforms/map.ts';

const op = { op: 'map' as const, at: 'quality', values: { hd: 'high', standard: 'medium', true: 'yes', '2': 'two' } };

describe('map op', () => {
  it('replaces a value found in the table', () => {
    expect(mapOp.apply({ quality: 'hd' }, op)).toEqual({ quality: 'high' });
  });

  it('looks numbers and booleans up by their text', () => {
    expect(mapOp.apply({ quality: true }, op)).toEqual({ quality: 'yes' });
    expect(mapOp.apply({ quality: 2 }, op)).toEqual({ quality: 'two' });
  });

  it('leaves values missing from the table, objects and missing fields alone', () => {
    for (const body of [{ quality: 'low' }, { quality: { hd: 1 } }, {}, { quality: 'toString' }]) {
      expect(mapOp.apply(body, op)).toBe(body);
    }
  });
});
