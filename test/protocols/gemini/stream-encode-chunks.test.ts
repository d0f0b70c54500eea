/** The generate-content stream encoder writes the chunks before the last from a template: the same bytes as serialising them. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { geminiChat } from '../../../src/protocols/gemini/translate/index.ts';
import { formatSseJson } from '../../../src/sse/write.ts';

describe('generate-content stream encoder, chunks before the last', () => {
  test('a held text chunk leaves as the serialised chunk, for any text, model and id', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.string(), fc.string(), (text, model, id) => {
      const encoder = geminiChat.createStreamEncoder({ id, model, created: 1 }, { messages: [] } as never);
      expect(encoder.encode({ type: 'text', text })).toBe('');
      const body = { candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0 }], modelVersion: model, responseId: id };
      expect(encoder.encode({ type: 'text', text: 'next' })).toBe(formatSseJson(body, undefined, '\r\n'));
    }));
  });
});
