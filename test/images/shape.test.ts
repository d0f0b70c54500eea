import { describe, expect, it } from 'vitest';
import { getModelShape, readBodyShape, SHAPE_A, SHAPE_B } from '../../src/images/shape.ts';
import type { ImageOptions } from '../../src/config/types.ts';

describe('request shape', () => {
  it('reads a top-level input as shape B and anything else as shape A', () => {
    expect(readBodyShape({ model: 'm', input: { prompt: 'p' } })).toBe(SHAPE_B);
    expect(readBodyShape({ model: 'm', prompt: 'p' })).toBe(SHAPE_A);
    expect(readBodyShape({ model: 'm' })).toBe(SHAPE_A);
  });

  it('answers 400 naming input when prompt and input come together', () => {
    expect(() => readBodyShape({ model: 'm', prompt: 'p', input: { prompt: 'p' } })).toThrow(
      expect.objectContaining({ status: 400, param: 'input', message: expect.stringContaining('not both') }),
    );
  });

  it('takes the model’s shape from its YAML', () => {
    expect(getModelShape({ shape: 'envelope' } as ImageOptions)).toBe(SHAPE_B);
    expect(getModelShape({ shape: 'openai' } as ImageOptions)).toBe(SHAPE_A);
  });
});
