import { describe, expect, test } from 'vitest';
import { anthropicChat as adapter } from '../../../src/protocols/anthropic/translate/index.ts';
import { createRequest, decodeStream, encodeStream, META, readFixture, readSseFixture, summarizeAnthropicStream } from '../../translate/fixtures.ts';

describe('messages adapter: responses', () => {
  test('decodes the response fixture; input usage sums cache reads and writes', () => {
    expect(adapter.decodeResponse(readFixture('anthropic/messages-response.json'))).toEqual({
      id: 'msg_013Zva2CMHLNnXjNJJKqJ2EF',
      model: 'claude-sonnet-4-20250514',
      content: [{ type: 'text', text: 'The image is a single white pixel on a transparent background.' }],
      finishReason: 'stop',
      usage: { inputTokens: 27, outputTokens: 16, cachedInputTokens: 0, cacheCreationInputTokens: 0 },
    });
    const cached = adapter.decodeResponse({ content: [], stop_reason: 'max_tokens', usage: { input_tokens: 10, cache_read_input_tokens: 90, cache_creation_input_tokens: 5, output_tokens: 3, output_tokens_details: { thinking_tokens: 2 } } });
    expect(cached.usage).toEqual({ inputTokens: 105, outputTokens: 3, cachedInputTokens: 90, cacheCreationInputTokens: 5, reasoningTokens: 2 });
    expect(cached.finishReason).toBe('length');
  });

  test('encodes text and tool calls as content blocks with stop reason and split input usage', () => {
    const body = adapter.encodeResponse({
      content: [{ type: 'text', text: 'Sure.' }, { type: 'tool_call', id: 'call_1', name: 'f', arguments: '{"x":"y"}' }],
      finishReason: 'tool_calls',
      usage: { inputTokens: 100, outputTokens: 7, cachedInputTokens: 60 },
    }, META, createRequest());
    expect(body).toEqual({
      id: 'msg_test123',
      type: 'message',
      role: 'assistant',
      model: 'client-model',
      content: [{ type: 'text', text: 'Sure.' }, { type: 'tool_use', id: 'call_1', name: 'f', input: { x: 'y' } }],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 40, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 60 },
    });
  });

  test('reports the matched stop sequence as stop_sequence', () => {
    const body: any = adapter.encodeResponse({ content: [], finishReason: 'stop', stopSequence: 'END', usage: {} }, META, createRequest());
    expect([body.stop_reason, body.stop_sequence]).toEqual(['stop_sequence', 'END']);
  });

  test.each([
    ['anthropic/error-401.json', 401, { status: 401, type: 'authentication_error', message: 'invalid x-api-key', authFailure: true }],
    ['anthropic/error-overloaded-529.json', 529, { status: 529, type: 'overloaded_error', message: 'Overloaded', authFailure: false }],
  ])('reads the error fixture %s', (name, status, expected) => {
    expect(adapter.decodeError(status, readFixture(name))).toEqual(expected);
  });
});

describe('messages adapter: streams', () => {
  test.each([
    ['the API\'s own layout', '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi \\"there\\"}}"}}', 'Hi "there"}}'],
    ['an escaped unicode text', '{"type":"content_block_delta","index":12,"delta":{"type":"text_delta","text":"\\u00fc\\n"}}', 'ü\n'],
    ['another key order', '{"index":0,"type":"content_block_delta","delta":{"text":"x","type":"text_delta"}}', 'x'],
    ['an extra field after the text', '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x","extra":{"a":1}}}', 'x'],
    ['spaces after colons', '{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "x"}}', 'x'],
  ])('reads a text delta written in %s', (_, data, text) => {
    expect(adapter.createStreamDecoder().decode({ event: 'content_block_delta', data })).toEqual([{ type: 'text', text }]);
  });

  test('reads a text block start as no event when empty, as text when it carries some, and ends on message_stop', () => {
    const decoder = adapter.createStreamDecoder();
    expect(decoder.decode({ event: 'content_block_start', data: '{"type":"content_block_start","index":3,"content_block":{"type":"text","text":""}}' })).toEqual([]);
    expect(decoder.decode({ event: 'content_block_start', data: '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Hi"}}' })).toEqual([{ type: 'text', text: 'Hi' }]);
    expect(decoder.done).toBe(false);
    expect(decoder.decode({ event: 'message_stop', data: '{"type":"message_stop"}' })).toEqual([]);
    expect(decoder.done).toBe(true);
  });

  test('reads an empty text delta as no event, and a broken one as an unreadable stream', () => {
    const decoder = adapter.createStreamDecoder();
    expect(decoder.decode({ data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":""}}' })).toEqual([]);
    expect(() => decoder.decode({ data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x}}' })).toThrow('unreadable stream event');
  });

  test('decodes the text stream fixture (pings ignored) with input then output usage', () => {
    const { events, done } = decodeStream(adapter, readSseFixture('anthropic/messages-stream.sse'));
    expect(done).toBe(true);
    expect(events).toEqual([
      { type: 'start', id: 'msg_4QpJur2dWWDjF6C758FbBw5vm12BaVipnK', model: 'claude-sonnet-4-20250514' },
      { type: 'usage', usage: { inputTokens: 11, outputTokens: 1, cachedInputTokens: 0, cacheCreationInputTokens: 0 } },
      { type: 'text', text: 'Hello' },
      { type: 'text', text: ' there' },
      { type: 'text', text: '!' },
      { type: 'finish', reason: 'stop' },
      { type: 'usage', usage: { inputTokens: 11, outputTokens: 6, cachedInputTokens: 0, cacheCreationInputTokens: 0 } },
    ]);
  });

  test('decodes the tool stream fixture: text, then a tool call with its JSON fragments', () => {
    const { events } = decodeStream(adapter, readSseFixture('anthropic/messages-tools-stream.sse'));
    expect(events.filter((e) => e.type === 'tool_call_start')).toEqual([{ type: 'tool_call_start', index: 0, id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather' }]);
    const args = events.filter((e) => e.type === 'tool_call_delta').map((e) => (e as { arguments: string }).arguments).join('');
    expect(JSON.parse(args)).toEqual({ location: 'Paris, France' });
    expect(events).toContainEqual({ type: 'finish', reason: 'tool_calls' });
  });

  test('decodes the mid-stream error fixture into an error event and leaves the stream unfinished', () => {
    const { events, done } = decodeStream(adapter, readSseFixture('anthropic/messages-stream-error.sse'));
    expect(done).toBe(false);
    expect(events.at(-1)).toEqual({ type: 'error', error: { status: 529, type: 'overloaded_error', message: 'Overloaded', authFailure: false } });
  });

  test('re-encoding the tool stream fixture gives the same event sequence (less pings and empty JSON deltas) and content', () => {
    const fixture = readSseFixture('anthropic/messages-tools-stream.sse');
    const text = encodeStream(adapter, decodeStream(adapter, fixture).events);
    const summary = summarizeAnthropicStream(text);
    const kept = fixture.filter((e) => e.event !== 'ping' && !e.data.includes('"partial_json":""'));
    expect(summary.types).toEqual(kept.map((e) => e.event));
    expect(summary).toMatchObject({
      text: "I'll check the current weather in Paris for you.",
      toolCalls: [{ id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather', arguments: { location: 'Paris, France' } }],
      finish: 'tool_use',
      usage: { input_tokens: 377, output_tokens: 65 },
    });
  });

  test('encodes events from another protocol: message_start first, blocks closed in order, usage in message_delta', () => {
    const text = encodeStream(adapter, [
      { type: 'start', id: 'chatcmpl-1' },
      { type: 'tool_call_start', index: 0, id: 'call_a', name: 'f' },
      { type: 'tool_call_delta', index: 0, arguments: '{"a"' },
      { type: 'tool_call_delta', index: 0, arguments: ':1}' },
      { type: 'tool_call_start', index: 1, id: 'call_b', name: 'g' },
      { type: 'finish', reason: 'tool_calls' },
      { type: 'usage', usage: { inputTokens: 9, outputTokens: 4, cachedInputTokens: 2 } },
    ]);
    const summary = summarizeAnthropicStream(text);
    expect(summary.types).toEqual([
      'message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_stop', 'message_delta', 'message_stop',
    ]);
    expect(summary.toolCalls).toEqual([{ id: 'call_a', name: 'f', arguments: { a: 1 } }, { id: 'call_b', name: 'g', arguments: {} }]);
    expect(summary.usage).toEqual({ input_tokens: 7, output_tokens: 4, cache_creation_input_tokens: 0, cache_read_input_tokens: 2 });
    expect(summary.finish).toBe('tool_use');
  });
});
