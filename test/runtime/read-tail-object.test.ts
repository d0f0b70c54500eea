import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTailObject } from '../../src/runtime/read-tail-object.ts';
import { findLastFieldObject } from '../helpers/find-last-field-object.ts';

/** The reference: the object after the last `"name":` of the bytes, found by matching braces outside strings, parsed alone. */
function readReferenceObject(body: Buffer, name: string): unknown {
  const span = findLastFieldObject(body, name);
  if (!span) return undefined;
  try {
    return JSON.parse(body.toString('utf8', span[0], span[1] + 1));
  } catch {
    return undefined;
  }
}

const awkward = fc.constantFrom('"usage"', '\\"usage\\"', 'usage', '{', '}', '{}', '\\', '"', '\u00e9\u4e2d', '\ud83d\ude00');
const text = fc.oneof(fc.string(), awkward, fc.array(awkward, { maxLength: 4 }).map((parts) => parts.join('')));
const value = fc.oneof(fc.jsonValue(), text, fc.dictionary(text, fc.oneof(fc.jsonValue(), text)));
const padding = fc.tuple(fc.constantFrom('a', '\u00e9', '\ud83d\ude00', '{', '}', '"usage":{'), fc.nat(700)).map(([unit, n]) => unit.repeat(n));
const space = fc.constantFrom('', ' ', '\n ');

describe('readTailObject', () => {
  it('is undefined or the object the bytes hold after the last field of that name, wherever it sits and whatever its strings hold', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('usage', 'other'), value, space), { maxLength: 5 }), padding, padding, (members, before, after) => {
        const fields = members.map(([name, v, gap]) => `"${name}"${gap}:${gap}${JSON.stringify(v) ?? 'null'}`);
        const body = Buffer.from(`{"pad":${JSON.stringify(before)},${fields.join(',')}${fields.length ? ',' : ''}"end":${JSON.stringify(after)}}`);
        const read = readTailObject(body, 'usage');
        if (read !== undefined) expect(read).toEqual(readReferenceObject(body, 'usage'));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a usage object written the way vendors write it', () => {
    const usage = { prompt_tokens: 21, completion_tokens: 15, total_tokens: 36, prompt_tokens_details: { cached_tokens: 0 } };
    const body = Buffer.from(`{"id":"x","choices":[{"text":"{\\"usage\\":{}}"}],"usage":${JSON.stringify(usage)},"service_tier":"default"}`);
    expect(readTailObject(body, 'usage')).toEqual(usage);
  });
});
