import { describe, expect, test } from 'vitest';
import { formatSseEvent } from '../../src/sse/write.ts';

describe('SSE data with line breaks of one kind', () => {
  test('data with only LF line breaks becomes one data line per line', () => {
    expect(formatSseEvent('first\nsecond')).toBe('data: first\ndata: second\n\n');
  });

  test('data with only CR line breaks becomes one data line per line', () => {
    expect(formatSseEvent('first\rsecond')).toBe('data: first\ndata: second\n\n');
  });

  test('each data line ends with the CRLF line end of the generate-content style', () => {
    expect(formatSseEvent('a\nb', 'e', '\r\n')).toBe('event: e\r\ndata: a\r\ndata: b\r\n\r\n');
  });
});
