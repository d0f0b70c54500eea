import { describe, expect, test } from 'vitest';
import { geminiChat as adapter } from '../../src/protocols/gemini/translate/index.ts';
import { openAIChatAdapter } from '../../src/protocols/openai/chat/index.ts';
import type { CanonicalRequest } from '../../src/translate/canonical.ts';
import { createFieldPolicy } from '../../src/translate/field-policy.ts';
import {
  createLenientPolicy, createRequest, decodeStream, encodeStream, META, parseSseText, readFixture, readFixtureText, readSseFixture, summarizeGeminiStream,
} from './fixtures.ts';

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+A8AAQUBAScY42YAAAAASUVORK5CYII=';
const encodeOptions = { model: 'upstream-model', policy: createLenientPolicy(), defaultMaxTokens: 4096 };

describe('generate-content adapter: requests', () => {
  test('decodes the request fixture (system instruction, model turn, inline image, generation config)', () => {
    const policy = createLenientPolicy();
    expect(adapter.decodeRequest(readFixture('gemini/generateContent-request.json'), { policy, stream: false })).toEqual<CanonicalRequest>({
      system: 'You are a helpful assistant.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hello, who are you?' }] },
        { role: 'assistant', content: [{ type: 'text', text: "I'm a helpful assistant. How can I help?" }] },
        { role: 'user', content: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PIXEL } }, { type: 'text', text: 'What is in this image? Answer in one sentence.' }] },
      ],
      maxTokens: 256,
      temperature: 0.7,
      topP: 0.95,
      topK: 40,
      stopSequences: ['\n\nUser:'],
      stream: false,
      includeUsage: false,
    });
    expect(policy.dropped).toEqual(['safetySettings']);
  });

  test('accepts snake_case field names', () => {
    const request = adapter.decodeRequest({
      system_instruction: { parts: [{ text: 'sys' }] },
      contents: [{ role: 'user', parts: [{ inline_data: { mime_type: 'image/jpeg', data: 'AA==' } }] }],
      generation_config: { max_output_tokens: 9 },
    }, { policy: createFieldPolicy(true), stream: true });
    expect(request).toMatchObject({ system: 'sys', maxTokens: 9, stream: true, messages: [{ content: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/jpeg' } }] }] });
  });

  test('gives function calls without ids an id and matches each response to the oldest call of its name', () => {
    const request = adapter.decodeRequest(readFixture('gemini/function-response-request.json'), { policy: createLenientPolicy() });
    expect(request.messages[1].content).toEqual([{ type: 'tool_call', id: 'call_0', name: 'customDivide', arguments: '{"numerator":10,"denominator":2}' }]);
    expect(request.messages[2].content).toEqual([{ type: 'tool_result', toolCallId: 'call_0', name: 'customDivide', content: [{ type: 'text', text: '{"output":5}' }] }]);
    expect(request.tools).toEqual([{ name: 'customDivide', description: 'Custom divide function', parameters: readFixture('gemini/function-response-request.json').tools[0].functionDeclarations[0].parametersJsonSchema }]);
  });

  test('decodes OpenAPI-style parameters to JSON Schema and the tool config', () => {
    const request = adapter.decodeRequest(readFixture('gemini/function-call-request.json'), { policy: createLenientPolicy() });
    expect(request.tools?.[0].parameters).toEqual({ type: 'object', properties: { numerator: { type: 'number' }, denominator: { type: 'number' } }, required: ['numerator', 'denominator'] });
    expect(request.toolChoice).toEqual({ type: 'auto' });
    const named = adapter.decodeRequest({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f'] } } }, { policy: createLenientPolicy() });
    expect(named.toolChoice).toEqual({ type: 'tool', name: 'f' });
  });

  test('drops search tools, or names them in a strict 400; reads a zero thinking budget as reasoning off', () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [{ googleSearch: {} }], generationConfig: { thinkingConfig: { thinkingBudget: 0 } } };
    const lenient = createLenientPolicy();
    expect(adapter.decodeRequest(body, { policy: lenient }).reasoning).toEqual({ enabled: false });
    expect(lenient.dropped).toEqual(['tools[0].googleSearch']);
    expect(() => adapter.decodeRequest(body, { policy: createFieldPolicy(true) })).toThrow(expect.objectContaining({ status: 400, param: 'tools[0].googleSearch' }));
  });

  test('decode then encode reproduces the request fixture (bookkeeping safety settings and candidateCount 1 left out)', () => {
    const { safetySettings: _s, ...fixture } = readFixture('gemini/generateContent-request.json');
    const { candidateCount: _c, ...generationConfig } = fixture.generationConfig;
    const call = adapter.encodeRequest(adapter.decodeRequest(fixture, { policy: createLenientPolicy(), stream: false }), encodeOptions);
    expect(call.path).toBe('/models/upstream-model:generateContent');
    expect(call.body).toEqual({ ...fixture, generationConfig });
  });

  test('decode then encode reproduces the function-call fixtures (JSON Schema parameters sent as the schema subset)', () => {
    const callFixture = readFixture('gemini/function-call-request.json');
    expect(adapter.encodeRequest(adapter.decodeRequest(callFixture, { policy: createLenientPolicy() }), encodeOptions).body).toEqual(callFixture);
    const responseFixture = readFixture('gemini/function-response-request.json');
    const expected = structuredClone(responseFixture);
    const declaration = expected.tools[0].functionDeclarations[0];
    delete declaration.parametersJsonSchema;
    declaration.parameters = { type: 'OBJECT', properties: { numerator: { type: 'NUMBER' }, denominator: { type: 'NUMBER' } } };
    expect(adapter.encodeRequest(adapter.decodeRequest(responseFixture, { policy: createLenientPolicy() }), encodeOptions).body).toEqual(expected);
  });

  test('encodes a chat-completions tool conversation: names function responses from their call ids, merges turns', () => {
    const request = openAIChatAdapter.decodeRequest(readFixture('openai/chat-tools-followup-request.json'), { policy: createLenientPolicy() });
    const call = adapter.encodeRequest({ ...request, stream: true }, encodeOptions);
    expect(call.path).toBe('/models/upstream-model:streamGenerateContent?alt=sse');
    expect((call.body as any).contents).toEqual([
      { role: 'user', parts: [{ text: "What's the weather like in Edinburgh, and what's the price of AAPL?" }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Edinburgh', units: 'c' } } }, { functionCall: { name: 'get_stock_price', args: { ticker: 'AAPL' } } }] },
      { role: 'user', parts: [
        { functionResponse: { name: 'get_weather', response: { temperature_c: 12, conditions: 'light rain' } } },
        { functionResponse: { name: 'get_stock_price', response: { price: 227.52, currency: 'USD' } } },
      ] },
    ]);
    expect((call.body as any).tools[0].functionDeclarations[0]).toEqual({
      name: 'get_weather', description: 'Get the current weather for a city',
      parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' }, units: { type: 'STRING', enum: ['c', 'f'] } }, required: ['city'] },
    });
  });

  test('encodes plain-text and failed tool results as output / error objects, image URLs as fileData', () => {
    const call = adapter.encodeRequest(createRequest({
      messages: [
        { role: 'user', content: [{ type: 'image', source: { kind: 'url', url: 'https://example.com/cat.webp?x=1' } }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'a', name: 'f', arguments: '{}' }, { type: 'tool_call', id: 'b', name: 'g', arguments: '{}' }] },
        { role: 'user', content: [
          { type: 'tool_result', toolCallId: 'a', content: [{ type: 'text', text: 'sunny' }] },
          { type: 'tool_result', toolCallId: 'b', content: [{ type: 'text', text: '{"code":1}' }], isError: true },
        ] },
      ],
    }), encodeOptions);
    expect((call.body as any).contents[0].parts[0]).toEqual({ fileData: { mimeType: 'image/webp', fileUri: 'https://example.com/cat.webp?x=1' } });
    expect((call.body as any).contents[2].parts).toEqual([
      { functionResponse: { name: 'f', response: { output: 'sunny' } } },
      { functionResponse: { name: 'g', response: { error: { code: 1 } } } },
    ]);
  });

  test('answers 400 for a tool result that answers no call in the conversation', () => {
    const request = createRequest({ messages: [{ role: 'user', content: [{ type: 'tool_result', toolCallId: 'zz', content: [] }] }] });
    expect(() => adapter.encodeRequest(request, encodeOptions)).toThrow(expect.objectContaining({ status: 400, param: 'messages' }));
  });

  test('encodes tool choice, JSON output, and drops parallel_tool_calls=false (no equivalent)', () => {
    const policy = createFieldPolicy(false, { parallelToolCalls: 'parallel_tool_calls' });
    const call = adapter.encodeRequest(createRequest({
      tools: [{ name: 'f', parameters: { type: 'object', properties: {} } }],
      toolChoice: { type: 'tool', name: 'f' },
      parallelToolCalls: false,
      responseFormat: { type: 'json_schema', schema: { type: 'object', properties: { a: { type: 'string' } } } },
      stream: false,
    }), { ...encodeOptions, policy });
    expect(call.body).toMatchObject({
      tools: [{ functionDeclarations: [{ name: 'f' }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f'] } },
      generationConfig: { responseMimeType: 'application/json', responseSchema: { type: 'OBJECT', properties: { a: { type: 'STRING' } } } },
    });
    expect((call.body as any).tools[0].functionDeclarations[0].parameters).toBeUndefined();
    expect(policy.dropped).toEqual(['parallel_tool_calls']);
  });
});

describe('generate-content adapter: responses', () => {
  test('decodes the response fixture', () => {
    expect(adapter.decodeResponse(readFixture('gemini/generateContent-response.json'))).toEqual({
      id: 'udSfaNTNEPP0n9kPrJGHuQ4',
      model: 'gemini-2.0-flash',
      content: [{ type: 'text', text: 'The image is a single white pixel on a transparent background.' }],
      finishReason: 'stop',
      usage: { inputTokens: 281, outputTokens: 13, totalTokens: 294 },
    });
  });

  test('decodes the function-call fixture: STOP with calls is tool_calls, the call gets an id', () => {
    const response = adapter.decodeResponse(readFixture('gemini/function-call-response.json'));
    expect(response.finishReason).toBe('tool_calls');
    expect(response.content).toEqual([{ type: 'tool_call', id: expect.stringMatching(/^call_/), name: 'customDivide', arguments: '{"numerator":100,"denominator":2}' }]);
  });

  test('counts thoughts as output and reads cached tokens; a blocked prompt is a content filter stop', () => {
    const response = adapter.decodeResponse({
      candidates: [{ content: { parts: [{ text: 'thinking…', thought: true }, { text: 'Answer' }] }, finishReason: 'MAX_TOKENS' }],
      usageMetadata: { promptTokenCount: 100, cachedContentTokenCount: 80, candidatesTokenCount: 5, thoughtsTokenCount: 20, totalTokenCount: 125 },
    });
    expect(response).toMatchObject({ content: [{ type: 'reasoning', text: 'thinking…' }, { type: 'text', text: 'Answer' }], finishReason: 'length', usage: { inputTokens: 100, outputTokens: 25, totalTokens: 125, cachedInputTokens: 80, reasoningTokens: 20 } });
    expect(adapter.decodeResponse({ promptFeedback: { blockReason: 'SAFETY' } }).finishReason).toBe('content_filter');
  });

  test('encodes an answer with text, a function call with its id, and usage with thoughts apart', () => {
    expect(adapter.encodeResponse({
      content: [{ type: 'text', text: 'Let me check.' }, { type: 'tool_call', id: 'call_9', name: 'f', arguments: '{"q":"x"}' }],
      finishReason: 'tool_calls',
      usage: { inputTokens: 10, outputTokens: 8, reasoningTokens: 3, cachedInputTokens: 4 },
    }, META, createRequest())).toEqual({
      candidates: [{
        content: { parts: [{ text: 'Let me check.' }, { functionCall: { id: 'call_9', name: 'f', args: { q: 'x' } } }], role: 'model' },
        finishReason: 'STOP',
        index: 0,
      }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 18, cachedContentTokenCount: 4, thoughtsTokenCount: 3 },
      modelVersion: 'client-model',
      responseId: 'test123',
    });
  });

  test.each([
    ['gemini/error-400.json', 400, { status: 400, type: 'INVALID_ARGUMENT', authFailure: true }],
    ['gemini/error-404.json', 404, { status: 404, type: 'NOT_FOUND', authFailure: false }],
  ])('reads the error fixture %s (a bad API key is a credential failure despite its 400)', (name, status, expected) => {
    expect(adapter.decodeError(status, readFixture(name))).toMatchObject(expected);
  });
});

describe('generate-content adapter: streams', () => {
  test.each([['LF', '\n'], ['CRLF', '\r\n']])('decodes the %s-framed stream fixture: each chunk\'s usage before its text, the last chunk finishes it with the final usage', (_name, newline) => {
    const text = readFixtureText('gemini/streamGenerateContent.sse').replaceAll('\n', newline);
    const { events, done } = decodeStream(adapter, parseSseText(text));
    expect(done).toBe(true);
    expect(events[0]).toEqual({ type: 'start', id: 'pdSfaOurIPqAm9IPucqbqA4', model: 'gemini-2.0-flash' });
    expect(events[1]).toMatchObject({ type: 'usage', usage: { inputTokens: 7 } });
    expect(events[2].type).toBe('text');
    expect(events.filter((e) => e.type === 'text').length).toBe(4);
    expect(events.filter((e) => e.type === 'usage').at(-1)).toEqual({ type: 'usage', usage: { inputTokens: 6, outputTokens: 27, totalTokens: 33 } });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  test('a stream that ends before finishReason is not complete', () => {
    expect(decodeStream(adapter, readSseFixture('gemini/streamGenerateContent.sse').slice(0, 3)).done).toBe(false);
  });

  test('decodes a whole function call chunk and an in-stream error body', () => {
    const decoder = adapter.createStreamDecoder();
    const events = decoder.decode({ data: JSON.stringify(readFixture('gemini/function-call-response.json')) });
    expect(events.filter((e) => e.type.startsWith('tool_call'))).toEqual([
      { type: 'tool_call_start', index: 0, id: expect.stringMatching(/^call_/), name: 'customDivide' },
      { type: 'tool_call_delta', index: 0, arguments: '{"numerator":100,"denominator":2}' },
    ]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
    expect(adapter.createStreamDecoder().decode({ data: JSON.stringify(readFixture('gemini/error-404.json')) })[0]).toMatchObject({ type: 'error', error: { status: 404 } });
  });

  test('re-encoding the stream fixture gives CRLF chunks with the same text; the last carries finishReason and usage', () => {
    const fixture = readSseFixture('gemini/streamGenerateContent.sse');
    const text = encodeStream(adapter, decodeStream(adapter, fixture).events);
    const summary = summarizeGeminiStream(text);
    expect(summary).toEqual({
      text: 'The sky is blue because of a phenomenon called Rayleigh scattering: air molecules scatter short (blue) wavelengths much more than long (red) ones.\n',
      toolCalls: [],
      chunks: 4,
      finish: 'STOP',
      usage: { promptTokenCount: 6, candidatesTokenCount: 27, totalTokenCount: 33 },
    });
    const last = JSON.parse(parseSseText(text).at(-1)!.data);
    expect(last.candidates[0].content.parts).toEqual([{ text: ' much more than long (red) ones.\n' }]);
  });

  test('encodes streamed tool-call fragments from another protocol as whole function calls', () => {
    const events = decodeStream(openAIChatAdapter, readSseFixture('openai/chat-tools-stream.sse')).events;
    const summary = summarizeGeminiStream(encodeStream(adapter, events));
    expect(summary).toMatchObject({
      chunks: 2,
      finish: 'STOP',
      toolCalls: [
        { id: 'call_JMW1whyEaYG438VE1OIflxA2', name: 'get_weather', arguments: { city: 'Edinburgh', units: 'c' } },
        { id: 'call_DNYTawLBoN8fj3KN6qU9N1Ou', name: 'get_stock_price', arguments: { ticker: 'AAPL' } },
      ],
      usage: { promptTokenCount: 91, candidatesTokenCount: 48, totalTokenCount: 139 },
    });
  });
});

describe('generate-content adapter: stream encoder edge cases', () => {
  test('assembles interleaved argument fragments of parallel calls by index', () => {
    const summary = summarizeGeminiStream(encodeStream(adapter, [
      { type: 'tool_call_start', index: 0, id: 'a', name: 'f' },
      { type: 'tool_call_start', index: 1, id: 'b', name: 'g' },
      { type: 'tool_call_delta', index: 1, arguments: '{"y":' },
      { type: 'tool_call_delta', index: 0, arguments: '{"x":1}' },
      { type: 'tool_call_delta', index: 1, arguments: '2}' },
      { type: 'finish', reason: 'tool_calls' },
    ]));
    expect(summary.toolCalls).toEqual([{ id: 'a', name: 'f', arguments: { x: 1 } }, { id: 'b', name: 'g', arguments: { y: 2 } }]);
  });

  test('an empty answer still ends with one chunk carrying finishReason and usage', () => {
    const summary = summarizeGeminiStream(encodeStream(adapter, [{ type: 'finish', reason: 'content_filter' }, { type: 'usage', usage: { inputTokens: 3 } }]));
    expect(summary).toEqual({ text: '', toolCalls: [], chunks: 1, finish: 'SAFETY', usage: { promptTokenCount: 3, candidatesTokenCount: 0, totalTokenCount: 3 } });
  });
});
