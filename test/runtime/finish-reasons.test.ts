import { describe, expect, it } from 'vitest';
import { anthropicAdapter } from '../../src/protocols/anthropic/index.ts';
import { geminiAdapter } from '../../src/protocols/gemini/index.ts';
import { openaiAdapter } from '../../src/protocols/openai/index.ts';
import { readFinishReasons } from '../../src/runtime/finish-reasons.ts';
import type { ProtocolAdapter } from '../../src/protocols/types.ts';

const read = (text: string, adapter: ProtocolAdapter = openaiAdapter) => readFinishReasons(Buffer.from(text), adapter);

describe('readFinishReasons', () => {
  it('reads one reason per choice, in order, and skips the null reasons of earlier stream events', () => {
    expect(read('data: {"choices":[{"finish_reason":null}]}\n\ndata: {"choices":[{"index":0,"finish_reason":"stop"},{"index":1,"finish_reason":"length"}]}\n')).toEqual(['stop', 'length']);
  });

  it("reads each protocol's own field, spaces around the colon allowed (Gemini answers are pretty-printed)", () => {
    expect(read('{"candidates": [{"finishReason" :  "MAX_TOKENS"}]}', geminiAdapter)).toEqual(['MAX_TOKENS']);
    expect(read('{"stop_reason":null}{"delta":{"stop_reason":"end_turn"}}', anthropicAdapter)).toEqual(['end_turn']);
    expect(read('{"finish_reason":"stop"}', anthropicAdapter)).toBeUndefined();
  });

  it("ignores the field name inside a model's text and values it cannot take as they are", () => {
    expect(read('{"content":"say \\"finish_reason\\": \\"fake\\""}')).toBeUndefined();
    expect(read('{"finish_reason":"a\\"b"}')).toBeUndefined();
    expect(read(`{"finish_reason":"${'x'.repeat(65)}"}`)).toBeUndefined();
    expect(read('{"finish_reason":"unterminated')).toBeUndefined();
  });

  it('keeps at most 16 reasons, and adds to those already read', () => {
    expect(read('{"finish_reason":"stop"}'.repeat(40))).toHaveLength(16);
    expect(readFinishReasons(Buffer.from('{"finish_reason":"length"}'), openaiAdapter, ['stop'])).toEqual(['stop', 'length']);
  });
});
