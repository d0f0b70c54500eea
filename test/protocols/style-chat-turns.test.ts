import { describe, expect, it } from 'vitest';
import { STYLES } from '../../src/protocols/styles.ts';

/** The request each style's SDK sends for one user turn (the console's playground sends exactly these). */
describe("each style's chat turn, as its SDK sends it", () => {
  it.each([
    [
      'openai',
      false,
      {
        path: '/v1/chat/completions',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-t' },
        body: { model: 'gpt/4o', stream: false, messages: [{ role: 'user', content: 'hello' }] },
      },
    ],
    [
      'anthropic',
      true,
      {
        path: '/v1/messages',
        headers: { 'content-type': 'application/json', 'x-api-key': 'sk-t', 'anthropic-version': '2023-06-01' },
        body: { model: 'gpt/4o', max_tokens: 512, stream: true, messages: [{ role: 'user', content: 'hello' }] },
      },
    ],
    [
      'gemini',
      false,
      {
        path: '/v1beta/models/gpt%2F4o:generateContent',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': 'sk-t' },
        body: { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] },
      },
    ],
    [
      'gemini',
      true,
      {
        path: '/v1beta/models/gpt%2F4o:streamGenerateContent?alt=sse',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': 'sk-t' },
        body: { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] },
      },
    ],
  ] as const)('%s (stream: %s)', (style, stream, request) => {
    expect(STYLES[style].writeChatTurn('gpt/4o', 'hello', stream, 'sk-t')).toEqual(request);
  });
});

describe('Google key reading', () => {
  it('falls back to ?key= when x-goog-api-key is sent empty', () => {
    expect(STYLES.gemini.readKey!({ 'x-goog-api-key': '' }, () => new URLSearchParams('key=sk-q'))).toBe('sk-q');
  });
});
