import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from '../../src/runtime/redact.ts';

/** The plain search: every form, longest first, replaced wherever `includes` finds it. */
function redactReference(forms: readonly string[], text: string): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.replaceAll(form, REDACTED);
  return out;
}

/** Characters of log lines and keys, frequent and rare, so that secrets share pieces with the text around them. */
const char = fc.constantFrom(...'"et:o,nas1-0kKvV_Z%/ \\'.split(''));
const piece = fc.array(char, { maxLength: 12 }).map((chars) => chars.join(''));
const secret = fc.array(char, { minLength: 8, maxLength: 16 }).map((chars) => chars.join(''));

describe('finding a secret from its rarest character', () => {
  it('redacts a line exactly as searching every form whole does', () => {
    fc.assert(
      fc.property(fc.array(secret, { minLength: 1, maxLength: 3 }), fc.array(fc.oneof(piece, fc.nat(2)), { maxLength: 12 }), (secrets, parts) => {
        const redactor = createRedactor(secrets);
        // A number stands for a secret (or a piece of one) written into the line.
        const text = parts.map((part) => (typeof part === 'number' ? secrets[part % secrets.length].slice(part) : part)).join('');
        expect(redactor.redactText(text)).toBe(redactReference(redactor.forms, text));
      }),
      { numRuns: 2000 },
    );
  });

  it('finds a secret whose rarest character is far into it, at the very start of the line and right after a near miss', () => {
    const redactor = createRedactor(['sk-v-123456789']);
    expect(redactor.redactText('sk-v-123456789,')).toBe(`${REDACTED},`);
    expect(redactor.redactText('sk-v-12345678sk-v-123456789')).toBe(`sk-v-12345678${REDACTED}`);
    expect(redactor.redactText('k-v-123456789 sk-v-12345678')).toBe('k-v-123456789 sk-v-12345678');
  });

  it('finds a secret whose rarest character is among its last few (searched from an earlier one), beside near misses', () => {
    const redactor = createRedactor(['sk-bench-vendor-0123456789abcdef']);
    const line = '{"id":"f0f1-ffff","a":"sk-bench-vendor-0123456789abcdeF","b":"k-bench-vendor-0123456789abcdef","c":"sk-bench-vendor-0123456789abcdef"}';
    expect(redactor.redactText(line)).toBe(line.replace('"c":"sk-bench-vendor-0123456789abcdef"', `"c":"${REDACTED}"`));
    expect(redactor.redactText('sk-bench-vendor-0123456789abcdef')).toBe(REDACTED);
  });
});
