import { describe, expect, it } from 'vitest';
import { detectImageType } from '../../src/images/image-type.ts';
import { TINY_PNG } from '../../src/simulators/media.ts';

describe('detectImageType', () => {
  it('reads PNG, JPEG, GIF and WebP from their first bytes', () => {
    expect(detectImageType(TINY_PNG)?.contentType).toBe('image/png');
    expect(detectImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))?.extension).toBe('jpg');
    expect(detectImageType(Buffer.from('GIF89a...'))?.contentType).toBe('image/gif');
    expect(detectImageType(Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))?.contentType).toBe('image/webp');
  });

  it('answers undefined for anything else, whatever it claims to be', () => {
    expect(detectImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(detectImageType(Buffer.alloc(0))).toBeUndefined();
    expect(detectImageType(Buffer.from('RIFF\u0000\u0000\u0000\u0000WAVE'))).toBeUndefined();
  });
});
