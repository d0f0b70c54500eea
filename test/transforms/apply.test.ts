import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { applyTransform, checkTransformOps, readTransformOps } from '../../src/transforms/index.ts';

const config = parse(readFileSync(new URL('../../gateway.yaml', import.meta.url), 'utf8'));
const envelopeItems = config.transforms['images-a-to-envelope'];

describe('applyTransform', () => {
  it('runs the ops in order, each seeing the result of the last', () => {
    const ops = readTransformOps([
      { move: { from: 'size', to: 'parameters.size' } },
      { replace: { at: 'parameters.size', find: 'x', with: '*' } },
      { default: { at: 'parameters.n', value: 1 } },
    ]);
    expect(applyTransform(ops, { size: '512x512' })).toEqual({ parameters: { size: '512*512', n: 1 } });
  });

  it('turns a shape A body into the envelope with the transform declared in gateway.yaml', () => {
    expect(checkTransformOps(envelopeItems)).toEqual([]);
    const body = {
      model: 'wanx2.1-t2i-turbo',
      prompt: 'a flower shop',
      size: '1024x1024',
      n: 2,
      quality: 'hd',
      response_format: 'url',
      user: 'u-1',
      negative_prompt: 'blurry',
      seed: 42,
    };
    expect(applyTransform(readTransformOps(envelopeItems), body)).toEqual({
      model: 'wanx2.1-t2i-turbo',
      input: { prompt: 'a flower shop' },
      parameters: { size: '1024*1024', n: 2, negative_prompt: 'blurry', seed: 42 },
    });
    expect(body.prompt).toBe('a flower shop');
  });

  it('returns the body unchanged for an empty op list', () => {
    const body = { a: 1 };
    expect(applyTransform([], body)).toBe(body);
  });
});
