import { describe, expect, test } from 'vitest';
import { geminiChat as adapter } from '../../../src/protocols/gemini/translate/index.ts';
import { openAIChatAdapter } from '../../../src/protocols/openai/chat/index.ts';
import type { CanonicalRequest } from '../../../src/translate/canonical.ts';
import { createFieldPolicy } from '../../../src/translate/field-policy.ts';
import { createLenientPolicy, createRequest, readFixture } from '../../translate/fixtures.ts';

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
