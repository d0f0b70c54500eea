import { describe, expect, it } from 'vitest';
import { setOp } from '../../src/transforms/set.ts';

describe('set op', () => {
  it('writes a value, replacing what the client sent', () => {
    expect(setOp.apply({ parameters: { watermark: true } }, { op: 'set', at: 'parameters.watermark', value: false })).toEqual({
      parameters: { watermark: false },
    });
  });

  it('creates missing objects on the way', () => {
    expect(setOp.apply({}, { op: 'set', at: 'a.b.c', value: 1 })).toEqual({ a: { b: { c: 1 } } });
  });

  it('gives each request its own copy of an object value', () => {
    const op = { op: 'set' as const, at: 'extra', value: { list: [1] } };
    const first = setOp.apply({}, op) as { extra: { list: number[] } };
    first.extra.list.push(2);
    expect(setOp.apply({}, op)).toEqual({ extra: { list: [1] } });
    expect(op.value).toEqual({ list: [1] });
  });
});
