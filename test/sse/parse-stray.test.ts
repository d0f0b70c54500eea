import { describe, expect, test } from 'vitest';
import { createSseParser, type SseEvent } from '../../src/sse/parse.ts';

describe('stray lines of an SSE body', () => {
  test('several stray lines are joined by newlines, in order', () => {
    const parser = createSseParser(() => {});
    parser.feed('upstream error\nplease retry\n');
    parser.end();
    expect(parser.stray).toBe('upstream error\nplease retry');
  });

  test('a malformed retry field is a valid SSE field, not stray text', () => {
    const events: SseEvent[] = [];
    const parser = createSseParser((event) => events.push(event));
    parser.feed('retry: soon\ndata: x\n\n');
    parser.end();
    expect(parser.stray).toBe('');
    expect(events.map((e) => e.data)).toEqual(['x']);
  });
});
