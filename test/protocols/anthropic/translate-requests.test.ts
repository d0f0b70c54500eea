import { describe, expect, test } from 'vitest';
import { anthropicChat as adapter } from '../../../src/protocols/anthropic/translate/index.ts';
import type { CanonicalRequest } from '../../../src/translate/canonical.ts';
import { createFieldPolicy } from '../../../src/translate/field-policy.ts';
import { createLenientPolicy, createRequest, readFixture } from '../../translate/fixtures.ts';

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+A8AAQUBAScY42YAAAAASUVORK5CYII=';
const encodeOptions = { model: 'upstream-model', policy: createLenientPolicy(), defaultMaxTokens: 4096 };

describe('messages adapter: requests', () => {
  test('decodes the image request fixture (top-level system, base64 image, stop sequences, metadata user)', () => {
    expect(adapter.decodeRequest(readFixture('anthropic/messages-request.json'), { policy: createLenientPolicy() })).toEqual<CanonicalRequest>({
      system: 'You are a helpful assistant.',
      messages: [{
        role: 'user',
        content: [
          { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PIXEL } },
          { type: 'text', text: 'What is in this image? Answer in one sentence.' },
        ],
      }],
      maxTokens: 1024,
      stopSequences: ['\n\nHuman:'],
      temperature: 0.7,
      user: 'user-1234',
      stream: false,
      includeUsage: false,
    });
  });

  test('decodes tool_use history and tool_result blocks', () => {
    const request = adapter.decodeRequest(readFixture('anthropic/messages-tools-followup-request.json'), { policy: createLenientPolicy() });
    expect(request.messages[1].content).toEqual([
      { type: 'text', text: "I'll check the current weather in Paris for you." },
      { type: 'tool_call', id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather', arguments: '{"location":"Paris, France"}' },
    ]);
    expect(request.messages[2].content).toEqual([
      { type: 'tool_result', toolCallId: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', content: [{ type: 'text', text: '15 degrees celsius, light rain' }] },
    ]);
    expect(request.tools?.[0].parameters).toMatchObject({ type: 'object', required: ['location'] });
  });

  test('decodes tool_choice any with parallel use disabled', () => {
    const request = adapter.decodeRequest({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }], tool_choice: { type: 'any', disable_parallel_tool_use: true } }, { policy: createLenientPolicy() });
    expect(request.toolChoice).toEqual({ type: 'required' });
    expect(request.parallelToolCalls).toBe(false);
  });

  const ROUND_TRIPS = ['anthropic/messages-request.json', 'anthropic/messages-tools-request.json', 'anthropic/messages-tools-followup-request.json'];
  test.each(ROUND_TRIPS)('decode then encode reproduces %s', (name) => {
    const fixture = readFixture(name);
    const call = adapter.encodeRequest(adapter.decodeRequest(fixture, { policy: createLenientPolicy() }), encodeOptions);
    expect(call.path).toBe('/v1/messages');
    const { stream, ...rest } = fixture;
    const expected: any = { ...rest, model: 'upstream-model', ...(stream ? { stream } : {}) };
    // A string content becomes one text block; both are the same message.
    expected.messages = fixture.messages.map((m: any) => ({ role: m.role, content: typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content }));
    for (const message of expected.messages) {
      for (const block of message.content) if (block.type === 'tool_result') delete block.is_error;
    }
    expect(call.body).toEqual(expected);
  });

  test('encodes max_tokens from the model default when the client sent none', () => {
    const call = adapter.encodeRequest(createRequest({ stream: false }), encodeOptions);
    expect(call.body).toEqual({ model: 'upstream-model', max_tokens: 4096, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
  });

  test('merges consecutive turns, leads with tool results, and converts data-URL images and tool choice', () => {
    const call = adapter.encodeRequest({
      system: 'Be brief.',
      messages: [
        { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'f', arguments: '{"a":1}' }, { type: 'tool_call', id: 'c2', name: 'f', arguments: '' }] },
        { role: 'user', content: [{ type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'one' }] }] },
        { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'tool_result', toolCallId: 'c2', content: [{ type: 'text', text: 'two' }], isError: true }] },
        { role: 'user', content: [{ type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } }, { type: 'text', text: '' }] },
      ],
      tools: [{ name: 'f', parameters: { properties: { a: { type: 'integer' } } } }],
      toolChoice: { type: 'required' },
      parallelToolCalls: false,
      maxTokens: 10,
      stream: true,
      includeUsage: false,
    }, encodeOptions);
    expect(call.body).toEqual({
      model: 'upstream-model',
      max_tokens: 10,
      system: 'Be brief.',
      stream: true,
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'f', input: { a: 1 } }, { type: 'tool_use', id: 'c2', name: 'f', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'c1', content: 'one' },
            { type: 'tool_result', tool_use_id: 'c2', content: 'two', is_error: true },
            { type: 'text', text: 'look' },
            { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
          ],
        },
      ],
      tools: [{ name: 'f', input_schema: { type: 'object', properties: { a: { type: 'integer' } } } }],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
    });
  });

  test('rejects tool-call arguments that are not a JSON object with a 400', () => {
    const request = createRequest({ messages: [{ role: 'assistant', content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '[1]' }] }] });
    expect(() => adapter.encodeRequest(request, encodeOptions)).toThrow(expect.objectContaining({ status: 400 }));
  });

  test('drops seed and penalties (no equivalent), or names them in a strict 400', () => {
    const lenient = createFieldPolicy(false, { seed: 'seed' });
    adapter.encodeRequest(createRequest({ seed: 7, presencePenalty: 1 }), { ...encodeOptions, policy: lenient });
    expect(lenient.dropped).toEqual(['presencePenalty', 'seed']);
    const strict = createFieldPolicy(true, { presencePenalty: 'presence_penalty' });
    expect(() => adapter.encodeRequest(createRequest({ presencePenalty: 1 }), { ...encodeOptions, policy: strict }))
      .toThrow(expect.objectContaining({ status: 400, code: 'untranslatable_field', param: 'presence_penalty' }));
  });
});
