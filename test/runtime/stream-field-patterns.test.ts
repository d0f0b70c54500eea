import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicAdapter } from '../../src/protocols/anthropic/index.ts';
import { geminiAdapter } from '../../src/protocols/gemini/index.ts';
import { openaiAdapter } from '../../src/protocols/openai/index.ts';
import { findUsageObject, hasErrorField } from '../../src/runtime/json-usage.ts';
import { getUsagePattern, hasErrorText } from '../../src/runtime/stream-field-patterns.ts';

/** Stream text built from the pieces the byte searches turn on: names, quotes, colons, spaces, braces, null, escapes, non-ASCII. */
const piece = fc.constantFrom('"usage"', '"usageMetadata"', '"error"', '"errors"', '\\"usage\\"', '\\"error\\"', 'usage', 'error', '"', ':', ' ', '\t', '\n', '\r', '{', '}', 'null', 'nul', ',', 'data: ', 'é', '€', '😀', '\u0085', 'x');
const text = fc.array(fc.oneof(piece, fc.string({ maxLength: 3 })), { maxLength: 40 }).map((pieces) => pieces.join(''));
const adapters = [openaiAdapter, anthropicAdapter, geminiAdapter];

describe('stream field patterns against the byte searches of json-usage.ts', () => {
  it('find the first usage object at or after any offset, as findUsageObject does', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.constantFrom(...adapters), (value, offset, adapter) => {
        const bytes = Buffer.from(value);
        const from = offset % (bytes.length + 1);
        const pattern = getUsagePattern(adapter);
        pattern.lastIndex = from;
        const match = pattern.exec(bytes.toString('latin1'));
        expect(match?.index ?? -1).toBe(findUsageObject(bytes, adapter, from));
      }),
      { numRuns: 2000 },
    );
  });

  it('find an error field exactly when hasErrorField does', () => {
    fc.assert(
      fc.property(text, (value) => {
        const bytes = Buffer.from(value);
        expect(hasErrorText(bytes.toString('latin1'))).toBe(hasErrorField(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it.each(['{"error":{"message":"x"}}', '{"type":"error"}', '{"error" : "boom"}', '{"error":', '{"error":nu', '"error"'])('find the error field of %s', (value) => {
    expect(hasErrorText(value)).toBe(true);
  });

  it.each(['{"error":null}', '{"error" :\n null,"x":1}', '{"text":"say \\"error\\" twice"}', '{"errors":[]}'])('find no error field in %s', (value) => {
    expect(hasErrorText(value)).toBe(false);
  });

  it('finds a spaced usage object, and not a usage field whose value is null', () => {
    const pattern = getUsagePattern(geminiAdapter);
    pattern.lastIndex = 0;
    expect(pattern.exec('{"usageMetadata": null, "x": {"usageMetadata" :\r\n {"promptTokenCount": 1}}}')?.index).toBe(30);
  });
});
