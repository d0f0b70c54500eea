import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readDeclaredLength } from '../../src/runtime/read-body.ts';

/** Content-Length texts: plain digit runs (short, long, zero-padded) and what Number reads otherwise. */
const headerText = fc.oneof(
  fc.stringMatching(/^[0-9]{1,20}$/),
  fc.nat().map(String),
  fc.constantFrom('', ' ', '0', '00', '+12', '-1', ' 42', '42 ', '0x1f', '1e3', '1.5', '.5', 'Infinity', 'NaN', '12a', '\t7\n', '123456789012345', '1234567890123456'),
  fc.string({ maxLength: 18 }),
  fc.stringMatching(/^[0-9+\-.eExX ]{0,17}$/),
);

describe('readDeclaredLength', () => {
  it('reads any header as Number does', () => {
    fc.assert(
      fc.property(headerText, (text) => {
        expect(readDeclaredLength(text)).toBe(Number(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('is NaN without a header, as Number(undefined)', () => {
    expect(readDeclaredLength(undefined)).toBeNaN();
  });
});
