import { describe, expect, it } from 'vitest';
import { replaceOp } from '../../src/transforms/replace.ts';

const op = { op: 'replace' as const, at: 'parameters.size', find: 'x', with: '*' };

describe('replace op', () => {
  it('replaces the text within a string', () => {
    expect(replaceOp.apply({ parameters: { size: '1024x1792' } }, op)).toEqual({ parameters: { size: '1024*1792' } });
  });

  it('replaces every occurrence, literally (no pattern syntax)', () => {
    expect(replaceOp.apply({ s: 'a.b.c' }, { op: 'replace', at: 's', find: '.', with: '-' })).toEqual({ s: 'a-b-c' });
    expect(replaceOp.apply({ s: 'a$1b' }, { op: 'replace', at: 's', find: 'a', with: '$&$&' })).toEqual({ s: '$&$&$1b' });
  });

  it('leaves missing fields, non-strings and strings without the text alone', () => {
    const cases = [{}, { parameters: { size: 1024 } }, { parameters: { size: '1024*1024' } }];
    for (const body of cases) expect(replaceOp.apply(body, op)).toBe(body);
  });
});
