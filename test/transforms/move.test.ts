import { describe, expect, it } from 'vitest';
import { moveOp } from '../../src/transforms/move.ts';

describe('move op', () => {
  it('moves a top-level field into a nested object it creates', () => {
    const body = { prompt: 'a cat', n: 2 };
    expect(moveOp.apply(body, { op: 'move', from: 'prompt', to: 'input.prompt' })).toEqual({ n: 2, input: { prompt: 'a cat' } });
  });

  it('merges into an existing object and leaves its other fields alone', () => {
    const body = { size: '1024x1024', parameters: { seed: 7 } };
    expect(moveOp.apply(body, { op: 'move', from: 'size', to: 'parameters.size' })).toEqual({ parameters: { seed: 7, size: '1024x1024' } });
  });

  it('moves falsy values such as 0, false and null', () => {
    expect(moveOp.apply({ a: 0 }, { op: 'move', from: 'a', to: 'b' })).toEqual({ b: 0 });
    expect(moveOp.apply({ a: false }, { op: 'move', from: 'a', to: 'b' })).toEqual({ b: false });
    expect(moveOp.apply({ a: null }, { op: 'move', from: 'a', to: 'b' })).toEqual({ b: null });
  });

  it('leaves the body unchanged when the source field is missing', () => {
    const body = { n: 1 };
    expect(moveOp.apply(body, { op: 'move', from: 'prompt', to: 'input.prompt' })).toBe(body);
  });

  it('never changes the body it was given', () => {
    const body = { size: '1x1', parameters: { seed: 1 } };
    const copy = structuredClone(body);
    moveOp.apply(body, { op: 'move', from: 'size', to: 'parameters.size' });
    expect(body).toEqual(copy);
  });

  it('rejects a non-object in the way with a 400 naming that field', () => {
    expect(() => moveOp.apply({ size: '1x1', parameters: 'oops' }, { op: 'move', from: 'size', to: 'parameters.size' })).toThrow(
      expect.objectContaining({ status: 400, param: 'parameters' }),
    );
  });

  it('reports moving a field onto itself or into itself', () => {
    expect(moveOp.check!({ op: 'move', from: 'a', to: 'a' })).toHaveLength(1);
    expect(moveOp.check!({ op: 'move', from: 'a', to: 'a.b' })[0].message).toContain('into itself');
    expect(moveOp.check!({ op: 'move', from: 'a', to: 'ab' })).toEqual([]);
  });
});
