import { describe, expect, test } from 'vitest';
import { formatSseEvent, formatSseJson } from '../../src/sse/write.ts';
import { createSseParser, type SseEvent } from '../../src/sse/parse.ts';

describe('SSE writer', () => {
  test('writes a data-only event with LF framing', () => {
    expect(formatSseEvent('[DONE]')).toBe('data: [DONE]\n\n');
  });

  test('writes an event line before the data', () => {
    expect(formatSseJson({ type: 'message_stop' }, 'message_stop')).toBe('event: message_stop\ndata: {"type":"message_stop"}\n\n');
  });

  test('writes CRLF framing when asked', () => {
    expect(formatSseJson({ a: 1 }, undefined, '\r\n')).toBe('data: {"a":1}\r\n\r\n');
  });

  test('splits multi-line data into data lines that parse back to the same text', () => {
    const text = formatSseEvent('one\ntwo\r\nthree', 'x');
    expect(text).toBe('event: x\ndata: one\ndata: two\ndata: three\n\n');
    const events: SseEvent[] = [];
    createSseParser((event) => events.push(event)).feed(text);
    expect(events[0]).toMatchObject({ event: 'x', data: 'one\ntwo\nthree' });
  });
});
