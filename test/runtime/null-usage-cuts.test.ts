import { describe, expect, it } from 'vitest';
import { openaiAdapter } from '../../src/protocols/openai/index.ts';
import { findNullUsageCuts, getUsageNameNeedles } from '../../src/runtime/null-usage-cuts.ts';

/** `text` with the cuts found in it taken out (the cuts may overlap: a later one inside an earlier is skipped). */
function cutOut(text: string, needles: string[]): string {
  const cuts = findNullUsageCuts(needles, text) ?? [];
  let out = '';
  let from = 0;
  for (let i = 0; i < cuts.length; i += 2) {
    if (cuts[i] < from) continue;
    out += text.slice(from, cuts[i]);
    from = cuts[i + 1];
  }
  return out + text.slice(from);
}

describe('the null usage members of an event line', () => {
  const needles = getUsageNameNeedles(openaiAdapter);

  it.each([
    ['{"choices":[],"usage":null}', '{"choices":[]}'],
    ['{"choices":[],"usage":null,"obfuscation":"k3"}', '{"choices":[],"obfuscation":"k3"}'],
    ['{"usage" :\tnull , "a":1}', '{"a":1}'],
    ['{"a":1 , "usage": null }', '{"a":1  }'],
    ['{"usage":null}', '{"usage":null}'],
    ['{"a":"x,\\"usage\\":null"}', '{"a":"x,\\"usage\\":null"}'],
    ['{"a":",","usage":null}', '{"a":","}'],
    ['{"a":1,"usage":nullx}', '{"a":1,"usage":nullx}'],
    ['{"a":1,"usage":{"prompt_tokens":1}}', '{"a":1,"usage":{"prompt_tokens":1}}'],
    ['{"a":1,"xusage":null}', '{"a":1,"xusage":null}'],
  ])('are cut from %s as OpenAI would leave them: %s', (text, expected) => {
    expect(cutOut(text, needles)).toBe(expected);
  });

  it('are found for every usage field a protocol names, in the order they come', () => {
    const text = '{"a":1,"usageMetadata":null,"b":2,"usage":null,"c":{"usageMetadata":null,"d":3}}';
    const cuts = findNullUsageCuts(['usage"', 'usageMetadata"'], text)!;
    const starts = cuts.filter((_, i) => i % 2 === 0);
    expect(starts).toHaveLength(3);
    expect(starts).toEqual([...starts].sort((x, y) => x - y));
    expect(cutOut(text, ['usage"', 'usageMetadata"'])).toBe('{"a":1,"b":2,"c":{"d":3}}');
  });

  it('finds none in a line that has no null usage member', () => {
    expect(findNullUsageCuts(needles, 'data: {"choices":[{"delta":{"content":"usage"}}]}')).toBeUndefined();
  });
});
