import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.ts';
import { renderStreamError } from '../../src/protocols/render-error.ts';
import { createSseParser, type SseEvent } from '../../src/sse/parse.ts';
import { STATUS_STYLE_ROWS, getExpectedBody } from '../errors/error-types.ts';

/** The frame each style's SDK expects for an error after the stream began. */
const FRAMES = {
  openai: (data: string) => `data: ${data}\n\n`,
  anthropic: (data: string) => `event: error\ndata: ${data}\n\n`,
  gemini: (data: string) => `data: ${data}\r\n\r\n`,
};

describe('an error ending a started stream, per status and style', () => {
  it.each(STATUS_STYLE_ROWS)('$status in the $style style is framed for its SDK with $expected', ({ status, style }) => {
    const error = new GatewayError(status, `code_${status}`, `cut ${status}`);
    const text = renderStreamError(style, error, 'req_s');
    const body = getExpectedBody(style, status, `code_${status}`, `cut ${status}`, 'req_s');
    expect(text).toBe(FRAMES[style](JSON.stringify(body)));
  });

  it('parses back as one event carrying the error body', () => {
    const error = new GatewayError(529, 'upstream_overloaded', 'Overloaded');
    const events: SseEvent[] = [];
    createSseParser((event) => events.push(event)).feed(renderStreamError('anthropic', error, 'req_x'));
    expect(events).toHaveLength(1);
    expect(events[0].event).toBe('error');
    expect(JSON.parse(events[0].data)).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: 'req_x' });
  });
});
