/**
 * The chat-completions stream encoder's bytes for a text answer: each chunk exactly the serialisation of
 * { id, object, created, model, choices: [{ index, delta, logprobs, finish_reason }] } in that order, the
 * usage chunk when asked for, then `[DONE]` (the bytes clients got before the encoder wrote its chunks
 * from pieces).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createOpenAIChatStreamEncoder } from '../../../src/protocols/openai/chat/stream.ts';
import type { CanonicalRequest, StreamEvent } from '../../../src/translate/canonical.ts';

/** An answer id the encoder prefixes as it is (an empty one is replaced by a random id, a prefixed one kept). */
const ID = fc.string({ unit: 'binary', minLength: 1 }).filter((id) => !id.startsWith('chatcmpl-'));
const TEXT = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom(' Write', 'Echo:', 'a "quote"', 'back\\slash', 'line\nend', '👋', '\ud800'));

/** The stream a text answer gives, serialised object by object. */
function serialise(id: string, model: string, texts: string[], includeUsage: boolean): string {
  const envelope = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: `chatcmpl-${id}`, object: 'chat.completion.chunk', created: 1700000000, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  let out = envelope({ role: 'assistant', content: '' }, null);
  for (const text of texts) out += envelope({ content: text }, null);
  out += envelope({}, 'stop');
  if (includeUsage) {
    const usage = { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } };
    out += `data: ${JSON.stringify({ id: `chatcmpl-${id}`, object: 'chat.completion.chunk', created: 1700000000, model, choices: [], usage })}\n\n`;
  }
  return `${out}data: [DONE]\n\n`;
}

describe('chat-completions stream encoder, bytes of a text answer', () => {
  test('are the chunks serialised one by one, for any id, model and texts, with and without the usage chunk', () => {
    fc.assert(fc.property(ID, TEXT, fc.array(TEXT, { maxLength: 8 }), fc.boolean(), (id, model, texts, includeUsage) => {
      const encoder = createOpenAIChatStreamEncoder({ id, model, created: 1700000000 }, { messages: [], includeUsage } as unknown as CanonicalRequest);
      const events: StreamEvent[] = [
        { type: 'start', id, model },
        { type: 'usage', usage: { inputTokens: 3 } },
        ...texts.map((text) => ({ type: 'text' as const, text })),
        { type: 'finish', reason: 'stop' },
        { type: 'usage', usage: { outputTokens: 5 } },
      ];
      const written = events.map((event) => encoder.encode(event)).join('') + encoder.end();
      expect(written).toBe(serialise(id, model, texts, includeUsage));
    }));
  });
});
