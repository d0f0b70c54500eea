import { describe, expect, it } from 'vitest';
import { formatDroppedFields, MAX_NAME_CHARS, MAX_VALUE_CHARS } from '../../src/translate/dropped-fields-header.ts';

/** What Node's http module accepts in a header value (it throws ERR_INVALID_CHAR on anything else). */
const VALID_HEADER_VALUE = /^[\t\x20-\x7e]*$/;

describe('formatDroppedFields', () => {
  it('gives no header when nothing was dropped', () => {
    expect(formatDroppedFields([])).toBeUndefined();
  });

  it('lists plain field names and paths as they are', () => {
    expect(formatDroppedFields(['logprobs', 'messages[0].content[1]', 'tools[2]'])).toBe('logprobs, messages[0].content[1], tools[2]');
  });

  it('percent-encodes non-ASCII, CR/LF, spaces, commas and percent signs as UTF-8 bytes', () => {
    const value = formatDroppedFields(['温度', 'a\r\nx-injected: 1', 'a,b', '100%'])!;
    expect(value).toBe('%E6%B8%A9%E5%BA%A6, a%0D%0Ax-injected:%201, a%2Cb, 100%25');
    expect(value).toMatch(VALID_HEADER_VALUE);
    expect(decodeURIComponent(value.split(', ')[0])).toBe('温度');
  });

  it('encodes a lone surrogate (which encodeURIComponent throws on) as a replacement character', () => {
    expect(formatDroppedFields(['\ud800x'])).toBe('%EF%BF%BDx');
  });

  it('shortens each name to MAX_NAME_CHARS characters', () => {
    expect(formatDroppedFields(['a'.repeat(10_000)])).toBe(`${'a'.repeat(MAX_NAME_CHARS)}...`);
  });

  it('stops before MAX_VALUE_CHARS and says how many names it left out', () => {
    const names = Array.from({ length: 5000 }, (_, i) => `field_${i}`);
    const value = formatDroppedFields(names)!;
    expect(value.length).toBeLessThanOrEqual(MAX_VALUE_CHARS);
    const listed = value.split(', ');
    const more = Number(/^\+(\d+) more$/.exec(listed.pop()!)![1]);
    expect(listed).toEqual(names.slice(0, listed.length));
    expect(listed.length + more).toBe(5000);
  });

  it('stays bounded and valid for 5,000 long non-ASCII names', () => {
    const value = formatDroppedFields(Array.from({ length: 5000 }, (_, i) => `温度${i}`.repeat(50)))!;
    expect(value.length).toBeLessThanOrEqual(MAX_VALUE_CHARS);
    expect(value).toMatch(VALID_HEADER_VALUE);
    expect(value).toMatch(/, \+\d+ more$/);
  });
});
