import { describe, expect, it } from 'vitest';
import { SHAPE_A, SHAPE_B } from '../../src/images/shape.ts';
import { checkSize } from '../../src/images/size.ts';

function messageOf(fn: () => void): { param?: string; code: string; message: string } {
  try {
    fn();
  } catch (error) {
    return error as { param?: string; code: string; message: string };
  }
  throw new Error('no error thrown');
}

describe('size check', () => {
  it('names 1024*1024 sent in shape A as shape B’s format, with the fix', () => {
    const error = messageOf(() => checkSize('1024*1024', SHAPE_A, SHAPE_A, undefined, 'dall-e-3'));
    expect(error).toMatchObject({ code: 'invalid_size', param: 'size' });
    expect(error.message).toBe("`size` '1024*1024' uses '*', which is shape B's format; shape A takes WIDTHxHEIGHT: '1024x1024'.");
  });

  it('names 1024x1024 sent in shape B as shape A’s format, with the fix', () => {
    const error = messageOf(() => checkSize('1024x1024', SHAPE_B, SHAPE_B, undefined, 'wanx'));
    expect(error.param).toBe('parameters.size');
    expect(error.message).toBe("`parameters.size` '1024x1024' uses 'x', which is shape A's format; shape B takes WIDTH*HEIGHT: '1024*1024'.");
  });

  it('accepts any size in the client shape’s format when the model lists none', () => {
    expect(() => checkSize('1280x720', SHAPE_A, SHAPE_B, undefined, 'wanx')).not.toThrow();
    expect(() => checkSize('768*2700', SHAPE_B, SHAPE_B, undefined, 'wanx')).not.toThrow();
    expect(() => checkSize(undefined, SHAPE_A, SHAPE_A, ['1024x1024'], 'm')).not.toThrow();
  });

  it('asks for a lowercase x and rejects other formats', () => {
    expect(messageOf(() => checkSize('1024X1024', SHAPE_A, SHAPE_A, undefined, 'm')).message).toContain('with a lowercase x');
    expect(messageOf(() => checkSize('big', SHAPE_A, SHAPE_A, undefined, 'm')).message).toContain("not 'big'");
    expect(messageOf(() => checkSize('auto', SHAPE_B, SHAPE_B, undefined, 'm')).param).toBe('parameters.size');
  });

  it('accepts only the listed sizes of a model, named values such as auto included', () => {
    const sizes = ['auto', '1024x1024', '1536x1024'];
    expect(() => checkSize('auto', SHAPE_A, SHAPE_A, sizes, 'gpt-image-1')).not.toThrow();
    expect(() => checkSize('1536x1024', SHAPE_A, SHAPE_A, sizes, 'gpt-image-1')).not.toThrow();
    const error = messageOf(() => checkSize('256x256', SHAPE_A, SHAPE_A, sizes, 'gpt-image-1'));
    expect(error.message).toBe("`size` '256x256' is not supported by model 'gpt-image-1'; supported: auto, 1024x1024, 1536x1024.");
  });

  it('compares a shape A size with an envelope model’s W*H list and shows the list in the client’s format', () => {
    const sizes = ['1024*1024', '1280*720'];
    expect(() => checkSize('1280x720', SHAPE_A, SHAPE_B, sizes, 'wan')).not.toThrow();
    expect(messageOf(() => checkSize('512x512', SHAPE_A, SHAPE_B, sizes, 'wan')).message).toContain('supported: 1024x1024, 1280x720.');
  });
});
