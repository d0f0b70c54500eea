import { describe, expect, it } from 'vitest';
import { checkShapeSchema } from '../../src/images/schemas.ts';
import { SHAPE_A, SHAPE_B } from '../../src/images/shape.ts';

function errorOf(fn: () => void) {
  try {
    fn();
  } catch (error) {
    return error as { status: number; code: string; param?: string; message: string };
  }
  throw new Error('no error thrown');
}

describe('shape schemas', () => {
  it('accepts the spec’s fields and unknown extra fields in both shapes', () => {
    expect(() =>
      checkShapeSchema(SHAPE_A, { model: 'm', prompt: 'p', n: 2, size: '1024x1024', quality: 'hd', style: 'vivid', response_format: 'b64_json', user: 'u', seed: 1 }),
    ).not.toThrow();
    expect(() =>
      checkShapeSchema(SHAPE_B, { model: 'm', input: { prompt: 'p', extra: 1 }, parameters: { size: '1024*1024', n: 2, negative_prompt: 'x', seed: 1 } }),
    ).not.toThrow();
  });

  it('names a missing prompt in each shape', () => {
    expect(errorOf(() => checkShapeSchema(SHAPE_A, { model: 'm' }))).toMatchObject({ status: 400, code: 'missing_required_parameter', param: 'prompt' });
    const b = errorOf(() => checkShapeSchema(SHAPE_B, { model: 'm', input: {} }));
    expect(b).toMatchObject({ param: 'input.prompt' });
    expect(b.message).toContain('shape B');
  });

  it('names a wrongly typed field', () => {
    expect(errorOf(() => checkShapeSchema(SHAPE_A, { model: 'm', prompt: 'p', n: 1.5 }))).toMatchObject({ code: 'invalid_type', param: 'n' });
    expect(errorOf(() => checkShapeSchema(SHAPE_B, { model: 'm', input: 'p' }))).toMatchObject({ code: 'invalid_type', param: 'input' });
    expect(errorOf(() => checkShapeSchema(SHAPE_B, { model: 'm', input: { prompt: 'p' }, parameters: [] }))).toMatchObject({ param: 'parameters' });
  });

  it('names n below 1, an empty prompt and an unknown response_format', () => {
    expect(errorOf(() => checkShapeSchema(SHAPE_A, { model: 'm', prompt: 'p', n: 0 }))).toMatchObject({ param: 'n', message: '`n` must be at least 1.' });
    expect(errorOf(() => checkShapeSchema(SHAPE_B, { model: 'm', input: { prompt: 'p' }, parameters: { n: 0 } }))).toMatchObject({ param: 'parameters.n' });
    expect(errorOf(() => checkShapeSchema(SHAPE_A, { model: 'm', prompt: '' }))).toMatchObject({ param: 'prompt' });
    expect(errorOf(() => checkShapeSchema(SHAPE_A, { model: 'm', prompt: 'p', response_format: 'png' }))).toMatchObject({
      code: 'invalid_value',
      param: 'response_format',
    });
  });
});
