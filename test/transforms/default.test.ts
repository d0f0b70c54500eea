import { describe, expect, it } from 'vitest';
import { defaultOp } from '../../src/transforms/default.ts';

describe('default op', () => {
  it('writes the value when the field is missing', () => {
    expect(defaultOp.apply({ parameters: {} }, { op: 'default', at: 'parameters.n', value: 1 })).toEqual({ parameters: { n: 1 } });
    expect(defaultOp.apply({}, { op: 'default', at: 'parameters.n', value: 1 })).toEqual({ parameters: { n: 1 } });
  });

  it('keeps a value the client sent, including 0, false and null', () => {
    for (const sent of [3, 0, false, null]) {
      const body = { parameters: { n: sent } };
      expect(defaultOp.apply(body, { op: 'default', at: 'parameters.n', value: 1 })).toBe(body);
    }
  });
});
