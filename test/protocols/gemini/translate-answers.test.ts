import { describe, expect, test } from 'vitest';
import { geminiChat as adapter } from '../../../src/protocols/gemini/translate/index.ts';
import { openAIChatAdapter } from '../../../src/protocols/openai/chat/index.ts';
import {
  createRequest, decodeStream, encodeStream, META, parseSseText, readFixture, readFixtureText, readSseFixture, summarizeGeminiStream,
} from '../../translate/fixtures.ts';

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
