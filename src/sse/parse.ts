/**
 * Server-Sent Events reading, over `eventsource-parser`. Handles comment and ping lines, LF, CR and CRLF
 * framing, a byte-order mark, multi-byte characters and events split across network reads. Lines that
 * are not SSE fields (e.g. a plain JSON error body sent on an event stream) are kept as "stray" text so a
 * caller can still read them.
 */
import { StringDecoder } from 'node:string_decoder';
import { createParser, type EventSourceParser } from 'eventsource-parser';

/** One parsed SSE event: its `event:` name (absent when the server sent none) and its joined `data:` lines. */
export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
}

/** An incremental SSE parser: feed it network reads, then call `end()` once the body is over. */
export interface SseParser {
  /** Parses one network read (bytes or text); complete events are delivered to the callback. */
  feed(chunk: Buffer | string): void;
  /** Flushes a last event that had no terminating blank line. */
  end(): void;
  /** Text of lines that were not SSE fields, joined by newlines (empty when there were none). */
  readonly stray: string;
}

/** Creates an incremental SSE parser that calls `onEvent` for each complete event, in order. */
export function createSseParser(onEvent: (event: SseEvent) => void): SseParser {
  const decoder = new StringDecoder('utf8');
  const strayLines: string[] = [];
  const parser: EventSourceParser = createParser({
    // The parser's message has the SseEvent shape already ({ event?, data, id? }): passed as it is.
    onEvent,
    onError: (error) => {
      if (error.type === 'unknown-field' && error.line !== undefined) strayLines.push(error.line);
    },
  });
  return {
    feed(chunk) {
      const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
      if (text.length > 0) parser.feed(text);
    },
    end() {
      const rest = decoder.end();
      // Two line ends dispatch a pending event whose blank line never came (a body cut after `data: {...}`).
      parser.feed(`${rest}\n\n`);
    },
    get stray() {
      return strayLines.join('\n');
    },
  };
}
