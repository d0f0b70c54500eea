import { describe, expect, it } from 'vitest';
import { dropOp } from '../../src/transforms/drop.ts';

describe('drop op', () => {
  it('removes a top-level field', () => {
    expect(dropOp.apply({ style: 'vivid', prompt: 'p' }, { op: 'drop', at: 'style' })).toEqual({ prompt: 'p' });
  });

  it('removes a nested field and keeps its siblings', () => {
    const body = { parameters: { seed: 1, n: 2 } };
    expect(dropOp.apply(body, { op: 'drop', at: 'parameters.seed' })).toEqual({ parameters: { n: 2 } });
    expect(body).toEqual({ parameters: { seed: 1, n: 2 } });
  });

  it('returns the same body when the field is missing or its parent is not an object', () => {
    for (const body of [{}, { parameters: 'x' }, { parameters: {} }]) {
      expect(dropOp.apply(body, { op: 'drop', at: 'parameters.seed' })).toBe(body);
    }
  });
});
