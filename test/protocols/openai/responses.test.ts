import { describe, expect, test } from 'vitest';
import { responsesAdapter as adapter } from '../../../src/protocols/openai/responses/index.ts';
import { anthropicChat } from '../../../src/protocols/anthropic/translate/index.ts';
import { createFieldPolicy } from '../../../src/translate/field-policy.ts';
import { createLenientPolicy, createRequest, decodeStream, encodeStream, META, readFixture, readSseFixture, summarizeResponsesStream } from '../../translate/fixtures.ts';

describe('responses-style adapter: requests', () => {
  test('decodes the request fixture (instructions, input items, max_output_tokens)', () => {
    expect(adapter.decodeRequest(readFixture('openai/responses-request.json'), { policy: createFieldPolicy(true) })).toEqual({
      system: 'You are a helpful assistant.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello!' }] }],
      maxTokens: 256,
      temperature: 1,
      stream: true,
      includeUsage: false,
    });
  });

  test('decodes a string input, function calls and their outputs, images and function tools', () => {
    const request = adapter.decodeRequest({
      model: 'm',
      input: [
        { role: 'developer', content: 'Be terse.' },
        { role: 'user', content: [{ type: 'input_text', text: 'Look' }, { type: 'input_image', image_url: 'https://example.com/x.png', detail: 'high' }] },
        { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{"a":1}' },
        { type: 'function_call', call_id: 'call_2', name: 'f', arguments: '{"a":2}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'one' },
        { type: 'reasoning', id: 'rs_1', summary: [] },
      ],
      tools: [{ type: 'function', name: 'f', description: 'F', parameters: { type: 'object', properties: { a: { type: 'integer' } } }, strict: true }],
      tool_choice: { type: 'function', name: 'f' },
      text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true } },
    }, { policy: createLenientPolicy() });
    expect(request.system).toBe('Be terse.');
    expect(request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image', source: { kind: 'url', url: 'https://example.com/x.png' }, detail: 'high' }] },
      { role: 'assistant', content: [{ type: 'tool_call', id: 'call_1', name: 'f', arguments: '{"a":1}' }, { type: 'tool_call', id: 'call_2', name: 'f', arguments: '{"a":2}' }] },
      { role: 'user', content: [{ type: 'tool_result', toolCallId: 'call_1', content: [{ type: 'text', text: 'one' }] }] },
    ]);
    expect(request.tools).toEqual([{ name: 'f', description: 'F', parameters: { type: 'object', properties: { a: { type: 'integer' } } } }]);
    expect(request.toolChoice).toEqual({ type: 'tool', name: 'f' });
    expect(request.responseFormat).toEqual({ type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true });
  });

  test.each([
    [{ previous_response_id: 'resp_1' }, 'previous_response_id'],
    [{ store: true }, 'store'],
    [{ conversation: 'conv_1' }, 'conversation'],
    [{ background: true }, 'background'],
    [{ input: [{ type: 'item_reference', id: 'msg_1' }] }, 'input[0].item_reference'],
  ])('answers 400 naming %o, which needs vendor-side response state', (fields, param) => {
    const body = { model: 'm', input: 'hi', ...fields };
    expect(() => adapter.decodeRequest(body, { policy: createLenientPolicy() })).toThrow(expect.objectContaining({ status: 400, param }));
  });

  test('accepts store: false and drops hosted tools (or rejects them when strict)', () => {
    const body = { model: 'm', input: 'hi', store: false, tools: [{ type: 'web_search' }] };
    const policy = createLenientPolicy();
    expect(adapter.decodeRequest(body, { policy }).tools).toBeUndefined();
    expect(policy.dropped).toEqual(['tools[0]']);
    expect(() => adapter.decodeRequest(body, { policy: createFieldPolicy(true) })).toThrow(expect.objectContaining({ param: 'tools[0]' }));
  });
});

describe('responses-style adapter: responses', () => {
  test('encodes an answer like the response fixture (message item, usage, settings echoed)', () => {
    const fixture = readFixture('openai/responses-response.json');
    const request = adapter.decodeRequest(readFixture('openai/responses-request.json'), { policy: createLenientPolicy() });
    const body: any = adapter.encodeResponse({
      content: [{ type: 'text', text: 'Hi there! How can I assist you today?' }],
      finishReason: 'stop',
      usage: { inputTokens: 37, outputTokens: 11, cachedInputTokens: 0, reasoningTokens: 0 },
    }, META, request);
    expect(Object.keys(body).sort()).toEqual(Object.keys(fixture).sort());
    expect(body).toMatchObject({
      id: 'resp_test123',
      object: 'response',
      status: 'completed',
      instructions: fixture.instructions,
      max_output_tokens: 256,
      model: 'client-model',
      output: [{ type: 'message', status: 'completed', role: 'assistant', content: fixture.output[0].content }],
      usage: fixture.usage,
      store: false,
    });
  });

  test('encodes function calls as output items and a length stop as incomplete', () => {
    const body: any = adapter.encodeResponse({
      content: [{ type: 'text', text: 'Calling.' }, { type: 'tool_call', id: 'toolu_1', name: 'f', arguments: '{}' }],
      finishReason: 'length',
      usage: {},
    }, META, createRequest());
    expect(body.output.map((item: any) => [item.type, item.call_id ?? item.content[0].text])).toEqual([['message', 'Calling.'], ['function_call', 'toolu_1']]);
    expect(body.status).toBe('incomplete');
    expect(body.incomplete_details).toEqual({ reason: 'max_output_tokens' });
  });
});

describe('responses-style adapter: streams', () => {
  test('encodes a text stream with the event sequence of the stream fixture', () => {
    const fixture = readSseFixture('openai/responses-stream.sse');
    const text = encodeStream(adapter, [
      { type: 'start', id: 'x' },
      ...'Hi there! How can I assist you today?'.split(/(?= )/).map((piece) => ({ type: 'text' as const, text: piece })),
      { type: 'finish', reason: 'stop' },
      { type: 'usage', usage: { inputTokens: 37, outputTokens: 11 } },
    ]);
    const summary = summarizeResponsesStream(text);
    const collapse = (types: string[]) => types.filter((type, i) => type !== 'response.output_text.delta' || types[i - 1] !== type);
    expect(collapse(summary.types)).toEqual(collapse(fixture.map((e) => e.event!)));
    expect(summary.text).toBe('Hi there! How can I assist you today?');
    expect(summary.response.output[0].content[0].text).toBe('Hi there! How can I assist you today?');
    expect(summary.usage).toMatchObject({ input_tokens: 37, output_tokens: 11, total_tokens: 48 });
  });

  test('encodes the tool stream of another protocol as message and function_call items', () => {
    const events = decodeStream(anthropicChat, readSseFixture('anthropic/messages-tools-stream.sse')).events;
    const summary = summarizeResponsesStream(encodeStream(adapter, events));
    expect(summary.text).toBe("I'll check the current weather in Paris for you.");
    expect(summary.toolCalls).toEqual([{ id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather', arguments: { location: 'Paris, France' } }]);
    expect(summary.types).toContain('response.function_call_arguments.done');
    expect(summary.response.output.map((item: any) => item.type)).toEqual(['message', 'function_call']);
    expect(summary.finish).toBe('completed');
  });
});
