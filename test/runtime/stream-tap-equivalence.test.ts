import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicAdapter } from '../../src/protocols/anthropic/index.ts';
import { geminiAdapter } from '../../src/protocols/gemini/index.ts';
import { openaiAdapter } from '../../src/protocols/openai/index.ts';
import type { ProtocolAdapter } from '../../src/protocols/types.ts';
import { createRedactor } from '../../src/runtime/redact.ts';
import { StreamTap } from '../../src/runtime/stream-tap.ts';
import type { Usage } from '../../src/runtime/types.ts';
import { ReferenceStreamTap } from './reference-stream-tap.ts';

const KEY = 'sk-equivalence-Secret+key';
const redactor = createRedactor([KEY]);

interface Tap {
  push(chunk: Buffer): Buffer;
  end(): Buffer;
}

/** What a tap hands the client for each piece (and at the end), the usage it read and the finish reasons. */
function runTap(make: (usage: Usage, reasons: { finishReasons?: string[] }) => Tap, pieces: Buffer[]) {
  const usage: Usage = {};
  const reasons: { finishReasons?: string[] } = {};
  const tap = make(usage, reasons);
  const out = pieces.map((piece) => tap.push(piece).toString('hex'));
  out.push(tap.end().toString('hex'));
  return { out, usage, reasons };
}

/** Cuts `bytes` at the given offsets (any byte, also inside a line or a UTF-8 character). */
function cut(bytes: Buffer, offsets: number[]): Buffer[] {
  const points = [...new Set(offsets.map((offset) => offset % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.subarray(from, point));
    from = point;
  }
  return pieces;
}

const count = fc.oneof(fc.nat(5000), fc.constant(-1), fc.constant('7'), fc.constant(1.5));
const text = fc.oneof(fc.string(), fc.constantFrom('"usage":{', '\\"usage\\": {', 'data: x', '"error"', KEY, 'é€😀', '\r', '\rdata: {"usage":{}}'));
const usageObject = fc.oneof(
  fc.record({ prompt_tokens: count, completion_tokens: count, total_tokens: count }),
  fc.record({ input_tokens: count, output_tokens: count }),
  fc.record({ promptTokenCount: count, candidatesTokenCount: count, totalTokenCount: count }),
);
/** One event's JSON: the fields usage, finish reasons and errors are found by, in every arrangement. */
const eventJson = fc.oneof(
  fc.record({ choices: fc.array(fc.record({ delta: fc.record({ content: text }), finish_reason: fc.oneof(fc.constant(null), fc.constantFrom('stop', 'length')) }), { maxLength: 2 }), usage: fc.oneof(fc.constant(null), usageObject) }),
  fc.record({ choices: fc.constant([]), usage: usageObject }),
  // A null usage first, as no vendor known sends it, but one could.
  fc.record({ usage: fc.constant(null), choices: fc.array(fc.record({ delta: fc.record({ content: text }) }), { maxLength: 1 }) }),
  fc.record({ type: fc.constantFrom('message_start', 'message_delta', 'error'), message: fc.record({ usage: usageObject }), usage: usageObject, delta: fc.record({ stop_reason: fc.constantFrom('end_turn', 'max_tokens') }) }, { requiredKeys: ['type'] }),
  fc.record({ candidates: fc.array(fc.record({ finishReason: fc.constantFrom('STOP', 'MAX_TOKENS') }), { maxLength: 1 }), usageMetadata: usageObject }, { requiredKeys: [] }),
  fc.record({ error: fc.oneof(fc.constant(null), fc.record({ message: text })) }),
);
const spaced = (json: unknown) => fc.constantFrom(JSON.stringify(json), JSON.stringify(json, null, 1).replace(/\n/g, ' '), JSON.stringify(json).replace(/":/g, '" :\t'));
/** A line of an event stream (a `data:` line, an event name, a comment, a blank, garbage). */
const line = fc.oneof(
  { weight: 5, arbitrary: eventJson.chain(spaced).map((json) => `data: ${json}`) },
  { weight: 1, arbitrary: eventJson.chain(spaced).map((json) => `data:${json}`) },
  { weight: 1, arbitrary: fc.constantFrom('event: message_delta', ': keep-alive "usage":{', 'data: [DONE]', 'data: {"usage":{"prompt_tokens":1}', '"usage"', 'data: {"x":"error"usage":{"prompt_tokens":3}}', 'data: {"choices":[],"usage":{"prompt_tokens":4},"error":1}', 'data: {"usage":null}', 'data: {"a":",","usage":null}', ': x,"usage":null,"usage" :null}', 'data: {"usage":nullx,"usage":null }') },
  // An error field cut by a line break from its `: null`, with a dropped usage event between them or not.
  { weight: 1, arbitrary: fc.constantFrom('data: {"error"', 'data: {"error":', ': null}', 'null}', '"usage"\t:', ' {"prompt_tokens":2}') },
  { weight: 3, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: text },
);
const stream = fc.tuple(fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n', '\r\r\n')), { maxLength: 24 }), fc.oneof(fc.constant(''), line)).map(([lines, last]) => lines.map(([l, end]) => l + end).join('') + last);
const adapters: [string, ProtocolAdapter][] = [['OpenAI', openaiAdapter], ['Anthropic', anthropicAdapter], ['Gemini', geminiAdapter]];

describe('the stream tap against the tap it replaced (bytes, usage, finish reasons, redaction)', () => {
  it.each(adapters)('hands the client the same bytes per piece and reads the same usage and reasons, %s, for any cut', (_, adapter) => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), fc.boolean(), fc.boolean(), (text, offsets, drop, redact, owned) => {
        const secrets = redact ? redactor : undefined;
        // Each tap reads its own copy: a tap that owns its chunks cuts dropped events out of them in place.
        const now = runTap((usage, reasons) => new StreamTap(adapter, usage, drop, secrets, reasons, owned), cut(Buffer.from(text), offsets));
        const before = runTap((usage, reasons) => new ReferenceStreamTap(adapter, usage, drop, secrets, reasons), cut(Buffer.from(text), offsets));
        expect(now).toEqual(before);
      }),
      { numRuns: 400 },
    );
  });
});
