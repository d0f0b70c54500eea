import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineFieldMarker, findField, findLastField } from '../../src/runtime/find-json-field.ts';

const NAMES = ['usage', 'error', 'finish_reason', 'stop_reason', 'usageMetadata', 'finishReason', 'id', 'ee', 'eeeeee'];

/** Text made of pieces of the names, quotes, escapes and noise, so near-misses and overlaps are common. */
const text = (name: string) =>
  fc
    .array(fc.oneof(fc.constantFrom(`"${name}"`, name, `${name}"`, `"${name}`, `\\"${name}\\"`, '"', 'e', 'r', name.slice(1), name.slice(0, -1)), fc.string({ maxLength: 4 })), { maxLength: 20 })
    .map((pieces) => Buffer.from(pieces.join('')));

describe('finding a quoted JSON field name by its infrequent tail', () => {
  it('searches from the first byte that is neither a quote nor a frequent letter', () => {
    expect(defineFieldMarker('usage').needle.toString()).toBe('usage"');
    expect(defineFieldMarker('error').needle.toString()).toBe('rror"');
    expect(defineFieldMarker('id').needle.toString()).toBe('"id"');
  });

  it.each(NAMES)('finds every "%s" indexOf finds, from any offset and up to any end', (name) => {
    const marker = defineFieldMarker(name);
    fc.assert(
      fc.property(text(name), fc.nat(), fc.nat(), (bytes, a, b) => {
        const from = a % (bytes.length + 1);
        const end = from + (b % (bytes.length - from + 1));
        const at = bytes.indexOf(marker.quoted, from);
        expect(findField(bytes, marker, from, end)).toBe(at !== -1 && at + marker.quoted.length <= end ? at : -1);
        expect(findLastField(bytes, marker)).toBe(bytes.lastIndexOf(marker.quoted));
      }),
      { numRuns: 300 },
    );
  });
});
