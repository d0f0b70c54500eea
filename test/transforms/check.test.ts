import { describe, expect, it } from 'vitest';
import { checkTransformOps, readTransformOps } from '../../src/transforms/index.ts';

describe('checkTransformOps', () => {
  it('accepts one valid item of every op kind and compiles them', () => {
    const items = [
      { move: { from: 'prompt', to: 'input.prompt' } },
      { set: { at: 'parameters.watermark', value: false } },
      { default: { at: 'parameters.n', value: 1 } },
      { replace: { at: 'parameters.size', find: 'x', with: '*' } },
      { map: { at: 'quality', values: { hd: 'high' } } },
      { drop: { at: 'style' } },
    ];
    expect(checkTransformOps(items)).toEqual([]);
    expect(readTransformOps(items)).toEqual([
      { op: 'move', from: 'prompt', to: 'input.prompt' },
      { op: 'set', at: 'parameters.watermark', value: false },
      { op: 'default', at: 'parameters.n', value: 1 },
      { op: 'replace', at: 'parameters.size', find: 'x', with: '*' },
      { op: 'map', at: 'quality', values: { hd: 'high' } },
      { op: 'drop', at: 'style' },
    ]);
  });

  it('names an unknown op and points at it', () => {
    const [problem] = checkTransformOps([{ drop: { at: 'a' } }, { rename: { from: 'a', to: 'b' } }]);
    expect(problem.path).toEqual([1, 'rename']);
    expect(problem.message).toContain('unknown transform op "rename"');
  });

  it('points at a bad path, a missing field and an unknown field', () => {
    const problems = checkTransformOps([
      { move: { from: 'input..prompt', to: 'b' } },
      { replace: { at: 'a', find: 'x' } },
      { drop: { at: 'a', where: 'b' } },
    ]);
    expect(problems.map((p) => p.path)).toEqual([
      [0, 'move', 'from'],
      [1, 'replace', 'with'],
      [2, 'drop', 'where'],
    ]);
    expect(problems[0].message).toContain('not a field path');
  });

  it('rejects paths that reach an object prototype', () => {
    const [problem] = checkTransformOps([{ set: { at: 'a.__proto__.b', value: 1 } }]);
    expect(problem.path).toEqual([0, 'set', 'at']);
  });

  it('rejects an empty find, a non-mapping map table and an item with two ops', () => {
    const problems = checkTransformOps([
      { replace: { at: 'a', find: '', with: '*' } },
      { map: { at: 'a', values: ['x'] } },
      { drop: { at: 'a' }, move: { from: 'a', to: 'b' } },
    ]);
    expect(problems.map((p) => p.path)).toEqual([[0, 'replace', 'find'], [1, 'map', 'values'], [2]]);
  });

  it('runs the op kind’s own check after the field rules', () => {
    const [problem] = checkTransformOps([{ move: { from: 'a', to: 'a.b' } }]);
    expect(problem).toEqual({ path: [0, 'move', 'to'], message: 'move: cannot move `a` into itself' });
  });

  it('rejects a transform that is not a non-empty list', () => {
    expect(checkTransformOps([])).toHaveLength(1);
    expect(checkTransformOps({ move: {} })).toHaveLength(1);
  });
});
