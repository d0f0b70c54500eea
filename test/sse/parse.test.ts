import { describe, expect, test } from 'vitest';
import { createSseParser, type SseEvent } from '../../src/sse/parse.ts';

function parseChunks(chunks: Array<string | Buffer>): { events: SseEvent[]; stray: string } {
  const events: SseEvent[] = [];
  const parser = createSseParser((event) => events.push(event));
  for (const chunk of chunks) parser.feed(chunk);
  parser.end();
  return { events, stray: parser.stray };
}

const ANTHROPIC_TEXT =
  'event: message_start\ndata: {"type":"message_start"}\n\n' +
  'event: ping\ndata: {"type": "ping"}\n\n' +
  ': keep-alive comment\n\n' +
  'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"Hé 👋"}}\n\n';

const EXPECTED = [
  { event: 'message_start', data: '{"type":"message_start"}' },
  { event: 'ping', data: '{"type": "ping"}' },
  { event: 'content_block_delta', data: '{"type":"content_block_delta","delta":{"text":"Hé 👋"}}' },
];

describe('SSE parser', () => {
  test('reads event names and data, skipping comment lines', () => {
    const { events } = parseChunks([ANTHROPIC_TEXT]);
    expect(events.map(({ event, data }) => ({ event, data }))).toEqual(EXPECTED);
  });

  test('reads CRLF-framed events (the generate-content stream framing)', () => {
    const text = 'data: {"a":1}\r\n\r\ndata: {"a":2}\r\n\r\n';
    expect(parseChunks([text]).events.map((e) => e.data)).toEqual(['{"a":1}', '{"a":2}']);
  });

  test('gives the same events whatever byte the stream is split at (multi-byte characters included)', () => {
    const bytes = Buffer.from(ANTHROPIC_TEXT.replaceAll('\n', '\r\n'));
    for (let cut = 1; cut < bytes.length; cut++) {
      const { events } = parseChunks([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(events.map(({ event, data }) => ({ event, data })), `split at ${cut}`).toEqual(EXPECTED);
    }
  });

  test('gives the same events when fed one byte at a time', () => {
    const bytes = Buffer.from(ANTHROPIC_TEXT);
    const chunks = [...bytes].map((byte) => Buffer.from([byte]));
    expect(parseChunks(chunks).events.map(({ event, data }) => ({ event, data }))).toEqual(EXPECTED);
  });

  test('joins multi-line data with newlines', () => {
    expect(parseChunks(['data: line one\ndata: line two\n\n']).events[0].data).toBe('line one\nline two');
  });

  test('flushes a last event that lacks its blank line when the body ends', () => {
    expect(parseChunks(['data: [DONE]']).events.map((e) => e.data)).toEqual(['[DONE]']);
  });

  test('keeps lines that are not SSE fields as stray text (a JSON error body sent on an event stream)', () => {
    const { events, stray } = parseChunks(['{\n  "error": {\n    "code": 404\n  }\n}\n']);
    expect(events).toEqual([]);
    expect(JSON.parse(stray)).toEqual({ error: { code: 404 } });
  });
});
