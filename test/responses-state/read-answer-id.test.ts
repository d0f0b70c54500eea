import { describe, expect, test } from 'vitest';
import { readFirstEventId, readIdHead, readIdParsed } from '../../src/responses-state/read-answer-id.ts';

describe('reading the response id of a passed-through answer', () => {
  test('the head of a JSON answer whose first key is its id, compact or pretty-printed', () => {
    expect(readIdHead(Buffer.from('{"id":"resp_1","object":"response"}'))).toBe('resp_1');
    expect(readIdHead(Buffer.from('{\n  "id": "resp_2",\n  "object": "response"'))).toBe('resp_2');
    expect(readIdHead(Buffer.from('{"object":"response","id":"resp_3"}'))).toBeUndefined();
    expect(readIdHead(Buffer.from('{"id":"resp_\\"x"}'))).toBeUndefined();
  });

  test('a whole JSON answer whose id comes later is parsed once; no id or no JSON is undefined', () => {
    expect(readIdParsed(Buffer.from('{"object":"response","output":[{"id":"msg_1"}],"id":"resp_3"}'))).toBe('resp_3');
    expect(readIdParsed(Buffer.from('{"object":"response"}'))).toBeUndefined();
    expect(readIdParsed(Buffer.from('not json'))).toBeUndefined();
    expect(readIdParsed(Buffer.from(`{"object":"response","id":"${'r'.repeat(257)}"}`))).toBeUndefined();
  });

  test("a stream's first event: undefined until it is complete, its response.id, or null when it carries none", () => {
    const event = 'event: response.created\ndata: {"type":"response.created","response":{"id":"resp_9","output":[]}}\n\n';
    expect(readFirstEventId(Buffer.from(event.slice(0, 40)))).toBeUndefined();
    expect(readFirstEventId(Buffer.from(event + 'event: response.in_progress\n'))).toBe('resp_9');
    expect(readFirstEventId(Buffer.from(event.replaceAll('\n', '\r\n')))).toBe('resp_9');
    expect(readFirstEventId(Buffer.from('event: error\ndata: {"type":"error"}\n\n'))).toBeNull();
    expect(readFirstEventId(Buffer.from('data: garbage\n\n'))).toBeNull();
  });
});
