import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMultipartContentType } from '../../src/runtime/json-bytes.ts';

describe('a Content-Type naming multipart/form-data (what a JSON route marked multipart also takes)', () => {
  it('is the media type before any parameter, in any case and spacing', () => {
    for (const header of ['multipart/form-data', 'multipart/form-data; boundary=x', ' Multipart/Form-Data ;boundary=x', 'MULTIPART/FORM-DATA']) {
      expect([header, isMultipartContentType(header)]).toEqual([header, true]);
    }
  });

  it('is not another or a missing media type, nor one named only in a parameter', () => {
    for (const header of [undefined, '', 'application/json', 'multipart/mixed; boundary=x', 'multipart/form-datax', 'text/plain; x=multipart/form-data', ';multipart/form-data']) {
      expect([header, isMultipartContentType(header)]).toEqual([header, false]);
    }
  });

  it('reads only what comes before the first semicolon, for any header', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (type, rest) => {
        const media = type.split(';')[0];
        const expected = media.trim().toLowerCase() === 'multipart/form-data';
        expect(isMultipartContentType(`${media};${rest}`)).toBe(expected);
        expect(isMultipartContentType(`multipart/form-data;${rest}`)).toBe(true);
      }),
    );
  });
});
