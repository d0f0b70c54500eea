/** The messages stream encoder writes its delta events from a template: the same bytes as serialising the event. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createAnthropicStreamEncoder } from '../../../src/protocols/anthropic/translate/stream-encode.ts';
import { formatSseJson } from '../../../src/sse/write.ts';

const META = { id: 'msg_1', model: 'claude', created: 1 };

/** The delta event as JSON.stringify writes it. */
function serialised(index: number, delta: Record<string, unknown>): string {
  return formatSseJson({ type: 'content_block_delta', index, delta }, 'content_block_delta');
}

describe('messages stream encoder, delta events', () => {
  test('text, thinking and tool argument deltas are byte for byte the serialised event, for any text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => {
      const encoder = createAnthropicStreamEncoder(META);
      expect(encoder.encode({ type: 'text', text }).endsWith(serialised(0, { type: 'text_delta', text }))).toBe(true);
      expect(encoder.encode({ type: 'reasoning', text }).endsWith(serialised(1, { type: 'thinking_delta', thinking: text }))).toBe(true);
      encoder.encode({ type: 'tool_call_start', index: 0, id: 'toolu_1', name: 'f' });
      expect(encoder.encode({ type: 'tool_call_delta', index: 0, arguments: text })).toBe(serialised(2, { type: 'input_json_delta', partial_json: text }));
    }));
  });
});
