import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicAdapter } from '../../src/protocols/anthropic/index.ts';
import { geminiAdapter } from '../../src/protocols/gemini/index.ts';
import { openaiAdapter } from '../../src/protocols/openai/index.ts';
import type { ProtocolAdapter } from '../../src/protocols/types.ts';
import { readUsageFromJson } from '../../src/runtime/json-usage.ts';
import { findLastFieldObject } from '../helpers/find-last-field-object.ts';

/** The reference: the last `"name"` followed by an object, that object found by matching its braces, then parsed alone. */
function readReferenceUsage(body: Buffer, adapter: ProtocolAdapter): unknown {
  for (const name of adapter.usageFields) {
    const span = findLastFieldObject(body, name);
    if (!span) continue;
    try {
      return adapter.readUsage({ [name]: JSON.parse(body.toString('utf8', span[0], span[1] + 1)) });
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const adapters = fc.constantFrom<ProtocolAdapter>(openaiAdapter, anthropicAdapter, geminiAdapter);
/** Texts that look like usage fields or break naive scans: quoted names, escapes, braces, non-ASCII. */
const awkward = fc.constantFrom('"usage"', '\\"usage\\"', 'usage', 'usageMetadata', '{', '}', '\\', '"', '\u00e9\u4e2d', '\ud83d\ude00', '\\u0075sage');
const text = fc.oneof(fc.string(), awkward, fc.array(awkward, { maxLength: 4 }).map((parts) => parts.join('')));
const count = fc.oneof(fc.nat(), fc.integer(), fc.double(), fc.constant(null), text);
const usageObject = fc.oneof(
  fc.record(
    { prompt_tokens: count, completion_tokens: count, total_tokens: count, input_tokens: count, output_tokens: count, promptTokenCount: count, candidatesTokenCount: count, totalTokenCount: count },
    { requiredKeys: [] },
  ),
  fc.dictionary(fc.oneof(text, fc.constantFrom('prompt_tokens', 'input_tokens', 'usage')), fc.jsonValue()),
  fc.record({ prompt_tokens: fc.nat(), prompt_tokens_details: fc.record({ cached_tokens: fc.nat() }), completion_tokens_details: fc.record({ reasoning_tokens: fc.nat() }) }),
);
const usageName = fc.constantFrom('usage', 'usageMetadata', '\\u0075sage', 'other');
/** A member: a usage field (any of the protocols' names) or another field holding any JSON, nested usage included. */
const member: fc.Arbitrary<[string, unknown]> = fc.oneof(
  fc.tuple(usageName, fc.oneof(usageObject, fc.constant(null), fc.jsonValue())),
  fc.tuple(text, fc.oneof(fc.jsonValue(), text, fc.record({ usage: usageObject }), fc.array(fc.record({ usage: usageObject, text }), { maxLength: 2 }))),
);
/** Spaces JSON allows between tokens, sometimes put around the members. */
const space = fc.constantFrom('', ' ', '\n  ', '\t');

/** An answer: the members in order (a name may repeat), as JSON text with keys written raw (an escaped name stays escaped). */
const answer = fc.tuple(fc.array(fc.tuple(member, space), { maxLength: 6 }), space).map(([members, end]) => {
  const fields = members.map(([[name, value], gap]) => `${gap}"${name.replace(/"/g, '')}"${gap}:${gap}${JSON.stringify(value) ?? 'null'}`);
  return `{${fields.join(',')}${end}}`;
});

/** Ways a vendor's bytes may be broken: cut short, trailing garbage, one byte changed. */
function damage(bytes: Buffer, kind: number, at: number): Buffer {
  if (bytes.length === 0) return bytes;
  const i = at % bytes.length;
  if (kind === 0) return bytes.subarray(0, i);
  if (kind === 1) return Buffer.concat([bytes, Buffer.from('}"usage":{"prompt_tokens":1}')]);
  const copy = Buffer.from(bytes);
  copy[i] = [0x7b, 0x7d, 0x22, 0x5c, 0x2c, 0xff][at % 6];
  return copy;
}

describe('usage read from any JSON answer', () => {
  it('is what parsing the last usage object alone gives, wherever it sits, whatever the strings around it hold', () => {
    fc.assert(
      fc.property(answer, adapters, (json, adapter) => {
        const body = Buffer.from(json);
        expect(readUsageFromJson(body, adapter)).toEqual(readReferenceUsage(body, adapter));
      }),
      { numRuns: 2000 },
    );
  });

  it('is the full parse\'s usage for an answer with one usage field, at the top level, wherever it sits among the others', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.jsonValue()), { maxLength: 5 }), usageObject, fc.nat(5), (others, usage, position) => {
        const entries = others.filter(([name]) => !name.includes('usage') && !name.includes('\\') && !name.includes('"'));
        entries.splice(position % (entries.length + 1), 0, ['usage', usage]);
        const json = JSON.stringify(Object.fromEntries(entries));
        // The top-level field is the only one (a usage key nested in another value is the reference's business).
        fc.pre(json.indexOf('"usage"') === json.lastIndexOf('"usage"'));
        const body = Buffer.from(json);
        expect(readUsageFromJson(body, openaiAdapter)).toEqual(openaiAdapter.readUsage(JSON.parse(body.toString())));
      }),
      { numRuns: 1000 },
    );
  });

  it('is the reference\'s answer when the usage sits anywhere about the edge of the answer\'s last 2 KB (read as text there)', () => {
    // Padding of ASCII, two- and four-byte characters puts the usage field before, across and after the edge,
    // and the edge itself inside a character.
    const padding = fc.tuple(fc.constantFrom('a', '\u00e9', '\ud83d\ude00', '{', '}'), fc.nat(2200)).map(([unit, n]) => unit.repeat(n));
    fc.assert(
      fc.property(answer, padding, padding, adapters, (json, before, after, adapter) => {
        const body = Buffer.from(`{"pad":${JSON.stringify(before)},"in":${json},"tail":${JSON.stringify(after)}}`);
        expect(readUsageFromJson(body, adapter)).toEqual(readReferenceUsage(body, adapter));
      }),
      { numRuns: 1000 },
    );
  });

  it('is the reference\'s answer for broken bytes: cut short, garbage after the end, a byte changed', () => {
    fc.assert(
      fc.property(answer, adapters, fc.nat(2), fc.nat(), (json, adapter, kind, at) => {
        const body = damage(Buffer.from(json), kind, at);
        expect(readUsageFromJson(body, adapter)).toEqual(readReferenceUsage(body, adapter));
      }),
      { numRuns: 2000 },
    );
  });
});
