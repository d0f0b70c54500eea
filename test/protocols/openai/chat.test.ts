import { describe, expect, test } from 'vitest';
import { openAIChatAdapter as adapter } from '../../../src/protocols/openai/chat/index.ts';
import type { CanonicalRequest } from '../../../src/translate/canonical.ts';
import { createFieldPolicy } from '../../../src/translate/field-policy.ts';
import { createLenientPolicy, createRequest, decodeStream, encodeStream, META, parseSseText, readFixture, readSseFixture, summarizeOpenAIStream } from '../../translate/fixtures.ts';

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+A8AAQUBAScY42YAAAAASUVORK5CYII=';
const encodeOptions = { model: 'upstream-model', policy: createLenientPolicy(), defaultMaxTokens: 4096 };

describe('chat-completions adapter: requests', () => {
  test('decodes the image request fixture (developer prompt, data-URL image, limits, stop, user)', () => {
    const request = adapter.decodeRequest(readFixture('openai/chat-request.json'), { policy: createLenientPolicy() });
    expect(request).toEqual<CanonicalRequest>({
      system: 'You are a helpful assistant.',
      messages: [{
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this image? Answer in one sentence.' },
          { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PIXEL }, detail: 'low' },
        ],
      }],
      maxTokens: 256,
      temperature: 0.7,
      topP: 1,
      stopSequences: ['\n\nUser:'],
      user: 'user-1234',
      stream: false,
      includeUsage: false,
    });
  });

  test('decodes a tool follow-up: assistant tool calls and tool results as user tool_result parts', () => {
    const request = adapter.decodeRequest(readFixture('openai/chat-tools-followup-request.json'), { policy: createLenientPolicy() });
    expect(request.messages.map((m) => [m.role, m.content.map((p) => p.type)])).toEqual([
      ['user', ['text']],
      ['assistant', ['tool_call', 'tool_call']],
      ['user', ['tool_result']],
      ['user', ['tool_result']],
    ]);
    expect(request.messages[1].content[1]).toEqual({ type: 'tool_call', id: 'call_DNYTawLBoN8fj3KN6qU9N1Ou', name: 'get_stock_price', arguments: '{"ticker": "AAPL"}' });
    expect(request.messages[2].content[0]).toEqual({
      type: 'tool_result', toolCallId: 'call_JMW1whyEaYG438VE1OIflxA2', content: [{ type: 'text', text: '{"temperature_c": 12, "conditions": "light rain"}' }],
    });
    expect(request.tools?.map((t) => t.name)).toEqual(['get_weather', 'get_stock_price']);
  });

  const ROUND_TRIPS: Array<{ fixture: string; expected: (fixture: any) => any }> = [
    { fixture: 'openai/chat-tools-request.json', expected: (f) => ({ ...f, model: 'upstream-model' }) },
    { fixture: 'openai/chat-tools-followup-request.json', expected: (f) => ({ ...f, model: 'upstream-model' }) },
    { fixture: 'openai/chat-stream-request.json', expected: (f) => ({ ...f, model: 'upstream-model', messages: [{ role: 'system', content: f.messages[0].content }, f.messages[1]] }) },
    {
      fixture: 'openai/chat-request.json',
      expected: ({ n: _n, ...f }) => ({ ...f, model: 'upstream-model', messages: [{ role: 'system', content: f.messages[0].content }, f.messages[1]] }),
    },
  ];
  test.each(ROUND_TRIPS)('decode then encode reproduces $fixture (system prompt as a system message, n=1 left out)', ({ fixture, expected }) => {
    const body = readFixture(fixture);
    const call = adapter.encodeRequest(adapter.decodeRequest(body, { policy: createLenientPolicy() }), encodeOptions);
    expect(call.path).toBe('/chat/completions');
    const want = expected(body);
    // The image part order is kept; only the key order of objects may differ.
    expect(call.body).toEqual(want);
  });

  test('encodes tool results as tool messages before the rest of the user turn, and always asks for stream usage', () => {
    const call = adapter.encodeRequest({
      messages: [
        { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_call', id: 'c1', name: 'f', arguments: '{}' }] },
        { role: 'user', content: [{ type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'ok' }] }, { type: 'text', text: 'and now?' }] },
      ],
      tools: [{ name: 'f', parameters: { type: 'object', properties: {} } }],
      toolChoice: { type: 'tool', name: 'f' },
      parallelToolCalls: false,
      stream: true,
      includeUsage: false,
    }, encodeOptions);
    expect(call.body).toEqual({
      model: 'upstream-model',
      messages: [
        { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'ok' },
        { role: 'user', content: 'and now?' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
      tool_choice: { type: 'function', function: { name: 'f' } },
      parallel_tool_calls: false,
    });
  });

  test('drops untranslatable fields, or rejects them with a 400 naming the field when strict', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }], logprobs: true, n: 2, metadata: { a: '1' } };
    const lenient = createLenientPolicy();
    adapter.decodeRequest(body, { policy: lenient });
    expect(lenient.dropped).toEqual(['logprobs', 'metadata', 'n']);
    expect(() => adapter.decodeRequest(body, { policy: createFieldPolicy(true) })).toThrow(expect.objectContaining({ status: 400, param: 'logprobs' }));
    const strictOk = createFieldPolicy(true);
    adapter.decodeRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }], metadata: { a: '1' }, store: false }, { policy: strictOk });
    expect(strictOk.dropped).toEqual(['metadata']);
  });
});

describe('chat-completions adapter: responses', () => {
  test('decodes the text response fixture with its usage', () => {
    expect(adapter.decodeResponse(readFixture('openai/chat-response.json'))).toEqual({
      id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
      model: 'gpt-4o-mini-2024-07-18',
      content: [{ type: 'text', text: 'The image is a single white pixel on a transparent background.' }],
      finishReason: 'stop',
      usage: { inputTokens: 104, outputTokens: 13, totalTokens: 117, cachedInputTokens: 0, reasoningTokens: 0 },
    });
  });

  test('decodes the tool-call response fixture', () => {
    const response = adapter.decodeResponse(readFixture('openai/chat-tools-response.json'));
    expect(response.content).toEqual([{ type: 'tool_call', id: 'call_JMW1whyEaYG438VE1OIflxA2', name: 'get_weather', arguments: '{"city": "Edinburgh", "units": "c"}' }]);
    expect(response.finishReason).toBe('tool_calls');
  });

  test('encodes an answer with text, tool calls, cached and reasoning usage', () => {
    const body = adapter.encodeResponse({
      id: 'x',
      content: [{ type: 'text', text: 'Hi' }, { type: 'tool_call', id: 'c1', name: 'f', arguments: '{"a":1}' }],
      finishReason: 'tool_calls',
      usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 4, reasoningTokens: 2 },
    }, META, { messages: [], stream: false, includeUsage: false });
    expect(body).toEqual({
      id: 'chatcmpl-test123',
      object: 'chat.completion',
      created: META.created,
      model: 'client-model',
      choices: [{
        index: 0,
        message: { role: 'assistant', content: 'Hi', refusal: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] },
        logprobs: null,
        finish_reason: 'tool_calls',
      }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_tokens_details: { cached_tokens: 4 }, completion_tokens_details: { reasoning_tokens: 2 } },
    });
  });

  test('reads a vendor error body and flags credential failures', () => {
    expect(adapter.decodeError(401, readFixture('openai/error-401.json'))).toMatchObject({ status: 401, type: 'invalid_api_key', authFailure: true });
    expect(adapter.decodeError(400, readFixture('openai/error-400-invalid-size.json'))).toMatchObject({ status: 400, authFailure: false });
    expect(adapter.decodeError(502, 'Bad gateway')).toEqual({ status: 502, type: 'upstream_error', message: 'Bad gateway', authFailure: false });
  });
});

describe('chat-completions adapter: streams', () => {
  test('decodes the text stream fixture to start, text deltas, finish, usage and completion', () => {
    const { events, done } = decodeStream(adapter, readSseFixture('openai/chat-stream.sse'));
    expect(done).toBe(true);
    expect(events[0]).toEqual({ type: 'start', id: 'chatcmpl-9tZXEmwtoDf6vqCqEWSvDP8jx9OXe', model: 'gpt-4o-mini-2024-07-18' });
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text).join('')).toBe('Hello! How can I help you today?');
    expect(events.slice(-2)).toEqual([
      { type: 'finish', reason: 'stop' },
      { type: 'usage', usage: { inputTokens: 19, outputTokens: 10, totalTokens: 29, cachedInputTokens: 0, reasoningTokens: 0 } },
    ]);
  });

  test('decodes the parallel tool-call stream fixture into indexed tool calls', () => {
    const { events } = decodeStream(adapter, readSseFixture('openai/chat-tools-stream.sse'));
    expect(events.filter((e) => e.type === 'tool_call_start')).toEqual([
      { type: 'tool_call_start', index: 0, id: 'call_JMW1whyEaYG438VE1OIflxA2', name: 'get_weather' },
      { type: 'tool_call_start', index: 1, id: 'call_DNYTawLBoN8fj3KN6qU9N1Ou', name: 'get_stock_price' },
    ]);
    const args = (index: number) => events.filter((e) => e.type === 'tool_call_delta' && e.index === index).map((e) => (e as { arguments: string }).arguments).join('');
    expect(JSON.parse(args(0))).toEqual({ city: 'Edinburgh', units: 'c' });
    expect(JSON.parse(args(1))).toEqual({ ticker: 'AAPL' });
    expect(events).toContainEqual({ type: 'finish', reason: 'tool_calls' });
  });

  test('a stream without [DONE] is not complete', () => {
    const events = readSseFixture('openai/chat-stream.sse').filter((e) => e.data !== '[DONE]');
    expect(decodeStream(adapter, events).done).toBe(false);
  });

  test('an in-stream error chunk becomes an error event', () => {
    const decoder = adapter.createStreamDecoder();
    expect(decoder.decode({ data: '{"error":{"message":"boom","type":"server_error"}}' })).toEqual([
      { type: 'error', error: { status: 500, type: 'server_error', message: 'boom', authFailure: false } },
    ]);
  });

  test.each(['openai/chat-stream.sse', 'openai/chat-tools-stream.sse'])('re-encoding %s gives the same chunk deltas, usage chunk and [DONE]', (name) => {
    const fixture = readSseFixture(name);
    const text = encodeStream(adapter, decodeStream(adapter, fixture).events, { messages: [], stream: true, includeUsage: true });
    const strip = (data: string) => {
      if (data === '[DONE]') return data;
      const chunk = JSON.parse(data);
      const choice = chunk.choices[0];
      if (!choice) {
        const u = chunk.usage;
        return { usage: [u.prompt_tokens, u.completion_tokens, u.total_tokens, u.prompt_tokens_details.cached_tokens, u.completion_tokens_details.reasoning_tokens] };
      }
      const { refusal: _r, ...delta } = choice.delta;
      if (delta.content === null) delta.content = '';
      return { delta, finish: choice.finish_reason };
    };
    const ours = parseSseText(text);
    expect(ours.map((e) => strip(e.data))).toEqual(fixture.map((e) => strip(e.data)));
    expect(JSON.parse(ours[0].data)).toMatchObject({ id: 'chatcmpl-test123', object: 'chat.completion.chunk', model: 'client-model' });
  });

  test('writes each chunk byte for byte as JSON.stringify of the chunk object, escapes included', () => {
    const meta = { id: 'a"b\\c', model: 'model "quoted" \u2028 ü', created: 1700000000 };
    const encoder = adapter.createStreamEncoder(meta, createRequest());
    const text = encoder.encode({ type: 'text', text: 'line\n"two" \u0000 ✓' }) + encoder.end();
    const chunk = (delta: unknown, finish: string | null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-a"b\\c', object: 'chat.completion.chunk', created: 1700000000, model: meta.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
    expect(text).toBe(
      chunk({ role: 'assistant', content: '' }, null) + chunk({ content: 'line\n"two" \u0000 ✓' }, null) + chunk({}, 'stop') + 'data: [DONE]\n\n',
    );
  });

  test('omits the usage chunk when the client did not ask for it, but still ends with a finish chunk and [DONE]', () => {
    const summary = summarizeOpenAIStream(encodeStream(adapter, [{ type: 'text', text: 'Hi' }, { type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } }]));
    expect(summary).toEqual({ text: 'Hi', toolCalls: [], finish: 'stop', done: true });
  });
});
