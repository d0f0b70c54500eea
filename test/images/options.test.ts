import { describe, expect, it } from 'vitest';
import type { ImageOptions } from '../../src/config/types.ts';
import { checkImageOptions } from '../../src/images/options.ts';
import { SHAPE_A, SHAPE_B } from '../../src/images/shape.ts';

const base: ImageOptions = { shape: 'openai', splitN: false, styleUnsupported: 'reject', rehost: false, b64FromUrl: true, b64Only: false, pollTimeoutMs: 1000 };

function errorOf(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    return error as { status: number; code: string; param?: string; message: string };
  }
  throw new Error('no error thrown');
}

describe('per-model image options', () => {
  it('gives a model declaring nothing the spec’s lists', () => {
    const body = { prompt: 'p', quality: 'hd', style: 'natural', response_format: 'b64_json' };
    expect(checkImageOptions(body, SHAPE_A, base, 'm')).toBe(body);
    expect(errorOf(() => checkImageOptions({ quality: 'high' }, SHAPE_A, base, 'm'))).toMatchObject({ param: 'quality', code: 'invalid_value' });
    expect(errorOf(() => checkImageOptions({ style: 'sketch' }, SHAPE_A, base, 'm')).message).toContain('supported: vivid, natural');
  });

  it('uses the model’s own lists (gpt-image-1 qualities)', () => {
    const options = { ...base, qualities: ['auto', 'low', 'medium', 'high'] };
    expect(() => checkImageOptions({ quality: 'high' }, SHAPE_A, options, 'gpt-image-1')).not.toThrow();
    expect(errorOf(() => checkImageOptions({ quality: 'hd' }, SHAPE_A, options, 'gpt-image-1')).message).toBe(
      "`quality` 'hd' is not supported by model 'gpt-image-1'; supported: auto, low, medium, high.",
    );
  });

  it('rejects style on a model that takes none, naming the field', () => {
    const error = errorOf(() => checkImageOptions({ style: 'vivid' }, SHAPE_A, { ...base, styles: [] }, 'dall-e-2'));
    expect(error).toMatchObject({ status: 400, code: 'unsupported_parameter', param: 'style' });
  });

  it('drops style on a model that takes none when the YAML says drop', () => {
    const result = checkImageOptions({ prompt: 'p', style: 'vivid' }, SHAPE_A, { ...base, styles: [], styleUnsupported: 'drop' }, 'm');
    expect(result).toEqual({ prompt: 'p' });
  });

  it('limits response_format to the model’s list, except on base64-only models', () => {
    expect(errorOf(() => checkImageOptions({ response_format: 'b64_json' }, SHAPE_A, { ...base, responseFormats: ['url'] }, 'm'))).toMatchObject({
      param: 'response_format',
    });
    expect(() => checkImageOptions({ response_format: 'url' }, SHAPE_A, { ...base, b64Only: true, responseFormats: ['b64_json'] }, 'm')).not.toThrow();
  });

  it('checks only response_format in shape B bodies', () => {
    expect(() => checkImageOptions({ quality: 'any', style: 'x' }, SHAPE_B, { ...base, styles: [] }, 'm')).not.toThrow();
  });
});
