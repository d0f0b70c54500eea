import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicAdapter } from '../../src/protocols/anthropic/index.ts';
import { geminiAdapter } from '../../src/protocols/gemini/index.ts';
import { openaiAdapter } from '../../src/protocols/openai/index.ts';
import type { ProtocolAdapter } from '../../src/protocols/types.ts';
import { findUsageObject, hasErrorField } from '../../src/runtime/json-usage.ts';
import { getUsageOrErrorPattern, getUsagePattern, isUsageMatch } from '../../src/runtime/stream-field-patterns.ts';

/** Stream text built from the pieces the byte searches turn on: names, quotes, colons, spaces, braces, null, escapes, non-ASCII. */
const piece = fc.constantFrom('"error"usage":{', '"usage"', '"usageMetadata"', '"error"', '"errors"', '\\"usage\\"', '\\"error\\"', 'usage', 'error', '"', ':', ' ', '\t', '\n', '\r', '{', '}', 'null', 'nul', ',', 'data: ', 'é', '€', '😀', '\u0085', 'x');
const text = fc.array(fc.oneof(piece, fc.string({ maxLength: 3 })), { maxLength: 40 }).map((pieces) => pieces.join(''));
const adapters = [openaiAdapter, anthropicAdapter, geminiAdapter];

/** Whether the one search of usage objects and error fields finds an error field in `text` (at any offset). */
function hasErrorText(text: string, adapter: ProtocolAdapter = openaiAdapter): boolean {
  const pattern = getUsageOrErrorPattern(adapter);
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) if (!isUsageMatch(text, pattern)) return true;
  return false;
}

/**
 * The usage objects the one search finds from `from`, as the stream tap walks it: at its first error field it
 * goes on with the usage pattern alone, from the character after that field's start.
 */
function findUsageObjects(text: string, adapter: ProtocolAdapter, from: number): number[] {
  let pattern = getUsageOrErrorPattern(adapter);
  pattern.lastIndex = from;
  const found: number[] = [];
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (pattern !== getUsagePattern(adapter) && !isUsageMatch(text, pattern)) {
      pattern = getUsagePattern(adapter);
      pattern.lastIndex = match.index + 1;
    } else found.push(match.index);
  }
  return found;
}

/** The usage objects the usage pattern alone finds from `from`. */
function findUsageObjectsAlone(text: string, adapter: ProtocolAdapter, from: number): number[] {
  const pattern = getUsagePattern(adapter);
  pattern.lastIndex = from;
  const found: number[] = [];
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) found.push(match.index);
  return found;
}

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

  it('find an error field exactly when hasErrorField does, in the one search for both', () => {
    fc.assert(
      fc.property(text, fc.constantFrom(...adapters), (value, adapter) => {
        const bytes = Buffer.from(value);
        expect(hasErrorText(bytes.toString('latin1'), adapter)).toBe(hasErrorField(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('find the same usage objects in the one search for both as in the search for usage alone, from any offset', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.constantFrom(...adapters), (value, offset, adapter) => {
        const latin1 = Buffer.from(value).toString('latin1');
        const from = offset % (latin1.length + 1);
        expect(findUsageObjects(latin1, adapter, from)).toEqual(findUsageObjectsAlone(latin1, adapter, from));
      }),
      { numRuns: 2000 },
    );
  });

  it('find a usage object that starts at the closing quote of an error field', () => {
    expect(findUsageObjects('x"error"usage":{}', openaiAdapter, 0)).toEqual([7]);
    expect(hasErrorText('x"error"usage":{}')).toBe(true);
  });

  it('know no usage field named error (its object would be taken for a usage object, not an error field)', () => {
    for (const adapter of adapters) expect(adapter.usageFields).not.toContain('error');
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
