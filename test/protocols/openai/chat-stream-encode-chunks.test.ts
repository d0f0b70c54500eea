/** The chat-completions stream encoder writes its chunks from templates: the same bytes as serialising each chunk. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createOpenAIChatStreamEncoder } from '../../../src/protocols/openai/chat/stream.ts';
import type { CanonicalRequest, StreamEvent } from '../../../src/translate/canonical.ts';

const TEXT = fc.string({ unit: 'binary' });
const EVENT: fc.Arbitrary<StreamEvent> = fc.oneof(
  TEXT.map((text) => ({ type: 'text' as const, text })),
  TEXT.map((text) => ({ type: 'reasoning' as const, text })),
  fc.record({ index: fc.nat(3), id: TEXT, name: TEXT }).map((call) => ({ type: 'tool_call_start' as const, ...call })),
  fc.record({ index: fc.nat(3), arguments: TEXT }).map((delta) => ({ type: 'tool_call_delta' as const, ...delta })),
  fc.constantFrom('stop', 'length', 'tool_calls', 'content_filter', 'other').map((reason) => ({ type: 'finish' as const, reason: reason as never })),
  fc.record({ inputTokens: fc.nat(), outputTokens: fc.nat() }).map((usage) => ({ type: 'usage' as const, usage })),
);

/** The `data:` payloads of an SSE text, `[DONE]` left out. */
function readPayloads(text: string): string[] {
  return text.split('\n\n').filter((frame) => frame.startsWith('data: ') && frame !== 'data: [DONE]').map((frame) => frame.slice(6));
}

describe('chat-completions stream encoder, chunks', () => {
  test('every chunk is byte for byte JSON.stringify of what it says, and the texts arrive whole, for any ids and texts', () => {
    fc.assert(fc.property(TEXT, TEXT, fc.array(EVENT, { maxLength: 12 }), fc.boolean(), (id, model, events, includeUsage) => {
      const encoder = createOpenAIChatStreamEncoder({ id, model, created: 1700000000 }, { messages: [], includeUsage } as unknown as CanonicalRequest);
      const text = events.map((event) => encoder.encode(event)).join('') + encoder.end();
      const chunks = readPayloads(text).map((payload) => {
        const chunk = JSON.parse(payload) as { id: string; model: string; choices: Array<{ delta: Record<string, unknown>; finish_reason: unknown }> };
        expect(payload).toBe(JSON.stringify(chunk));
        expect(chunk.model).toBe(model);
        return chunk;
      });
      expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
      const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
      const written = (field: string) => deltas.map((delta) => delta[field]).filter((value) => typeof value === 'string').join('');
      expect(written('content')).toBe(events.map((event) => (event.type === 'text' ? event.text : '')).join(''));
      expect(written('reasoning_content')).toBe(events.map((event) => (event.type === 'reasoning' ? event.text : '')).join(''));
      expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    }));
  });
});
