import { describe, expect, test } from 'vitest';
import { completionsAdapter as adapter } from '../../../src/protocols/openai/completions/index.ts';
import { createFieldPolicy } from '../../../src/translate/field-policy.ts';
import { createLenientPolicy, createRequest, encodeStream, META, parseSseText, readFixture, readSseFixture } from '../../translate/fixtures.ts';

describe('legacy completions adapter', () => {
  test('decodes the request fixture into one user message', () => {
    expect(adapter.decodeRequest(readFixture('openai/completions-legacy-request.json'), { policy: createFieldPolicy(true) })).toEqual({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say this is a test' }] }],
      maxTokens: 7,
      temperature: 0,
      stopSequences: ['\n\n\n'],
      stream: false,
      includeUsage: false,
    });
  });

  test('drops echo and suffix, or names them in a strict 400', () => {
    const body = { model: 'm', prompt: 'x', echo: true, suffix: 'y' };
    const policy = createLenientPolicy();
    adapter.decodeRequest(body, { policy });
    expect(policy.dropped).toEqual(['echo', 'suffix']);
    expect(() => adapter.decodeRequest(body, { policy: createFieldPolicy(true) })).toThrow(expect.objectContaining({ status: 400, param: 'echo' }));
  });

  test('encodes an answer shaped like the response fixture', () => {
    const fixture = readFixture('openai/completions-legacy-response.json');
    const body: any = adapter.encodeResponse({ content: [{ type: 'text', text: '\n\nThis is indeed a test' }], finishReason: 'length', usage: { inputTokens: 5, outputTokens: 7 } }, META, createRequest());
    expect(body).toMatchObject({ id: 'cmpl-test123', object: 'text_completion', choices: fixture.choices, usage: fixture.usage });
  });

  test('encodes a stream shaped like the stream fixture: text chunks, a finish chunk with empty text, [DONE]', () => {
    const fixture = readSseFixture('openai/completions-legacy-stream.sse');
    const pieces = fixture.slice(0, -2).map((e) => JSON.parse(e.data).choices[0].text as string);
    const text = encodeStream(adapter, [...pieces.map((piece) => ({ type: 'text' as const, text: piece })), { type: 'finish', reason: 'length' }]);
    const strip = (data: string) => (data === '[DONE]' ? data : JSON.parse(data).choices);
    expect(parseSseText(text).map((e) => strip(e.data))).toEqual(fixture.map((e) => strip(e.data)));
  });
});
