/**
 * The messages stream decoder's in-place reads of `message_start` and `message_delta` give what a full
 * parse of the event gives (the reference: the same event with spaces after its commas, which the
 * in-place reads do not take).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createAnthropicStreamDecoder } from '../../../src/protocols/anthropic/translate/stream-decode.ts';
import { readMessageDelta, readMessageStart } from '../../../src/protocols/anthropic/translate/stream-read-message.ts';

/** The events one decoder makes of `data`, with and without the event name. */
function decode(data: string, event?: string): unknown[] {
  return [...createAnthropicStreamDecoder().decode({ event, data })];
}

/** The same event with a space after each comma outside strings' reach: parsed in full by the decoder. */
function spaced(data: string): string {
  return data.replaceAll(',"', ', "');
}

const count = fc.oneof(fc.nat(), fc.constant(0));
/** A usage object as the API writes it, members in any order, some absent, some nested or of other types. */
const usage = fc.record(
  {
    input_tokens: count,
    cache_creation_input_tokens: fc.oneof(count, fc.constant(null)),
    cache_read_input_tokens: count,
    output_tokens: count,
    output_tokens_details: fc.record({ thinking_tokens: count }),
    service_tier: fc.string(),
  },
  { requiredKeys: [] },
);
const text = fc.string({ unit: 'binary' });

function writeStart(id: string, model: string, counts: object): string {
  return JSON.stringify({ type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: counts } });
}

function writeDelta(reason: string | null, sequence: string | null, counts: object): string {
  return JSON.stringify({ type: 'message_delta', delta: { stop_reason: reason, stop_sequence: sequence }, usage: counts });
}

describe('messages stream decoder, message events read in place', () => {
  test('a message_start as the API writes it decodes like the parsed one, named or not', () => {
    fc.assert(fc.property(text, text, usage, (id, model, counts) => {
      const data = writeStart(id, model, counts);
      expect(readMessageStart(data)).toBeDefined();
      const parsed = decode(spaced(data), 'message_start');
      expect(decode(data, 'message_start')).toEqual(parsed);
      expect(decode(data)).toEqual(parsed);
    }));
  });

  test('a message_delta as the API writes it decodes like the parsed one, named or not', () => {
    const reason = fc.oneof(fc.constantFrom('end_turn', 'max_tokens', 'stop_sequence', 'tool_use', ''), text, fc.constant(null));
    fc.assert(fc.property(reason, fc.oneof(text, fc.constant(null)), usage, (stop, sequence, counts) => {
      const data = writeDelta(stop, sequence, counts);
      expect(readMessageDelta(data)).toBeDefined();
      const parsed = decode(spaced(data), 'message_delta');
      expect(decode(data, 'message_delta')).toEqual(parsed);
      expect(decode(data)).toEqual(parsed);
    }));
  });

  test('the bench vendor\'s events give the start, the finish and both usages', () => {
    const start = '{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":21,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}}';
    expect(readMessageStart(start)).toEqual([
      { type: 'start', id: 'msg_1', model: 'm' },
      { type: 'usage', usage: { inputTokens: 21, outputTokens: 1, cachedInputTokens: 0, cacheCreationInputTokens: 0, reasoningTokens: undefined } },
    ]);
    const delta = '{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":15}}';
    expect(readMessageDelta(delta)).toEqual([{ type: 'finish', reason: 'stop' }, { type: 'usage', usage: { outputTokens: 15 } }]);
  });

  test('near misses are left to the full parse: another field, a cut or extra brace, a broken literal, a usage that is no object', () => {
    const start = writeStart('msg_1', 'm', { input_tokens: 1 });
    const delta = writeDelta('end_turn', 'x', { output_tokens: 2 });
    for (const data of [
      start.replace('"content":[]', '"content":[],"container":null'),
      start.slice(0, -1),
      `${start}}`,
      start.replace('"msg_1"', '"msg_1\\x"'),
      start.replace('{"input_tokens":1}', '[1]'),
      start.replace('"msg_1"', 'null'),
    ]) expect(readMessageStart(data)).toBeUndefined();
    for (const data of [
      delta.replace('"stop_sequence":"x"', '"stop_sequence":"x","extra":1'),
      delta.slice(0, -1),
      `${delta}}`,
      delta.replace('"end_turn"', '"end\\qturn"'),
      delta.replace('"x"', '"x\\q"'),
      delta.replace('{"output_tokens":2}', '7'),
      delta.replace('"end_turn"', 'true'),
    ]) expect(readMessageDelta(data)).toBeUndefined();
    expect(() => decode(delta.replace('"x"', '"x\\q"'), 'message_delta')).toThrow();
    expect(decode(delta.replace('{"output_tokens":2}', '7'), 'message_delta')).toEqual([{ type: 'finish', reason: 'stop', stopSequence: 'x' }]);
  });
});
