/** The messages stream decoder's in-place reads (text deltas, empty text block starts) give what a full parse gives. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createAnthropicStreamDecoder } from '../../../src/protocols/anthropic/translate/stream-decode.ts';

/** The events one decoder makes of `data`, with and without the event name. */
function decode(data: string, event?: string): unknown[] {
  return [...createAnthropicStreamDecoder().decode({ event, data })];
}

/** The same event with a space after each comma: not the API's way of writing it, so it is parsed in full. */
function spaced(data: string): string {
  return data.replaceAll(',"', ', "');
}

describe('messages stream decoder, in-place reads', () => {
  test('a text delta as the API writes it decodes like the parsed one, named or not', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.nat(40), (text, index) => {
      const data = JSON.stringify({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
      const parsed = decode(spaced(data), 'content_block_delta');
      expect(parsed).toEqual(text ? [{ type: 'text', text }] : []);
      expect(decode(data, 'content_block_delta')).toEqual(parsed);
      expect(decode(data)).toEqual(parsed);
    }));
  });

  test('an empty text block start gives nothing; one with text, or another block, is parsed', () => {
    expect(decode('{"type":"content_block_start","index":3,"content_block":{"type":"text","text":""}}', 'content_block_start')).toEqual([]);
    expect(decode('{"type":"content_block_start","index":3,"content_block":{"type":"text","text":"hi"}}', 'content_block_start')).toEqual([{ type: 'text', text: 'hi' }]);
    expect(decode('{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"f","input":{}}}')).toEqual([
      { type: 'tool_call_start', index: 0, id: 't1', name: 'f' },
    ]);
  });

  test('near misses of the API form are parsed in full: an extra field, a broken literal, another delta type', () => {
    expect(decode('{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a","x":1}}', 'content_block_delta')).toEqual([{ type: 'text', text: 'a' }]);
    expect(decode('{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\\u0062"}}', 'content_block_delta')).toEqual([{ type: 'text', text: 'ab' }]);
    expect(decode('{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"t"}}', 'content_block_delta')).toEqual([{ type: 'reasoning', text: 't' }]);
    expect(() => decode('{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"b"}}', 'content_block_delta')).toThrow();
  });

  test('block 0 (read with one comparison) and other blocks decode alike, and a brace short of the end is parsed', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.constantFrom(0, 1, 9, 10, 100), (text, index) => {
      const data = JSON.stringify({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
      const parsed = text ? [{ type: 'text', text }] : [];
      expect(decode(data, 'content_block_delta')).toEqual(parsed);
      expect(() => decode(data.slice(0, -1), 'content_block_delta')).toThrow();
      const start = JSON.stringify({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      expect(decode(start, 'content_block_start')).toEqual([]);
      expect(decode(start)).toEqual(decode(spaced(start), 'content_block_start'));
    }));
    expect(decode('{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}} ', 'content_block_delta')).toEqual([{ type: 'text', text: 'a' }]);
    expect(() => decode('{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"}}', 'content_block_delta')).toThrow();
  });

  test('a tool call after text blocks keeps its own index (the tool index table is made at the first block start)', () => {
    const decoder = createAnthropicStreamDecoder();
    const events = [
      '{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{}"}}',
      '{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"f","input":{}}}',
      '{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"a\\":1}"}}',
    ].map((data) => [...decoder.decode({ data })]);
    expect(events).toEqual([[], [{ type: 'tool_call_start', index: 0, id: 't1', name: 'f' }], [{ type: 'tool_call_delta', index: 0, arguments: '{"a":1}' }]]);
  });
  test('whatever the name (but the three the name alone decides), an event read in place decodes as its full parse', () => {
    const names = fc.oneof(
      fc.constantFrom(undefined, 'content_block_delta', 'content_block_start', 'message_start', 'message_delta', 'error', 'content_block_stoq', 'message_stoq', 'pinh'),
      fc.string(),
    );
    const usage = fc.record({ input_tokens: fc.nat(), output_tokens: fc.nat(), cache_read_input_tokens: fc.nat(), cache_creation_input_tokens: fc.nat() });
    const datas = fc.oneof(
      fc.tuple(fc.string({ unit: 'binary' }), fc.nat(12)).map(([text, index]) => JSON.stringify({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } })),
      fc.nat(12).map((index) => JSON.stringify({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } })),
      fc.tuple(fc.string(), fc.string(), usage).map(([id, model, use]) =>
        JSON.stringify({ type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: use } })),
      fc.tuple(fc.constantFrom('end_turn', 'max_tokens', 'stop_sequence', null), fc.option(fc.string()), usage).map(([reason, sequence, use]) =>
        JSON.stringify({ type: 'message_delta', delta: { stop_reason: reason, stop_sequence: sequence }, usage: use })),
    );
    fc.assert(fc.property(names, datas, (name, data) => {
      // A space before the object: no in-place read takes it, the full parse gives the same object.
      expect(decode(data, name)).toEqual(decode(` ${data}`, name));
    }));
  });

  test('the names that decide alone: ping and block stop give nothing, message stop ends the stream, whatever the data', () => {
    const delta = '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}}';
    expect(decode(delta, 'ping')).toEqual([]);
    expect(decode(delta, 'content_block_stop')).toEqual([]);
    const decoder = createAnthropicStreamDecoder();
    expect([...decoder.decode({ event: 'message_stop', data: delta })]).toEqual([]);
    expect(decoder.done).toBe(true);
    expect(decode(delta, 'message_start')).toEqual([{ type: 'text', text: 'a' }]);
  });
  test('a block 0 delta whose literal has no quote or backslash (raw control characters too) is its text as written, as for any other block', () => {
    const plain = fc.string({ unit: 'binary' }).map((text) => text.replace(/["\\]/g, ''));
    fc.assert(fc.property(plain, fc.constantFrom(0, 1, 10), (text, index) => {
      const data = `{"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":"${text}"}}`;
      expect(decode(data, 'content_block_delta')).toEqual(text ? [{ type: 'text', text }] : []);
      expect(decode(data)).toEqual(decode(data, 'content_block_delta'));
    }));
    expect(decode('{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\\"b"}}', 'content_block_delta')).toEqual([{ type: 'text', text: 'a"b' }]);
  });
});
