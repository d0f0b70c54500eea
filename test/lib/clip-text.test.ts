import { describe, expect, it } from 'vitest';
import { clipClientText, MAX_QUOTED_CHARS } from '../../src/lib/clip-text.ts';

describe('clipClientText', () => {
  it('keeps a string of up to MAX_QUOTED_CHARS characters as it is', () => {
    expect(clipClientText('gpt-4o')).toBe('gpt-4o');
    expect(clipClientText('x'.repeat(MAX_QUOTED_CHARS))).toBe('x'.repeat(MAX_QUOTED_CHARS));
  });

  it('cuts a longer string and says how many characters were left out', () => {
    expect(clipClientText('x'.repeat(MAX_QUOTED_CHARS + 10))).toBe(`${'x'.repeat(MAX_QUOTED_CHARS)}… (10 more characters)`);
    expect(clipClientText('abcdef', 2)).toBe('ab… (4 more characters)');
  });
});
