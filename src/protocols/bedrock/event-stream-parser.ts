/** The binary AWS event stream (`application/vnd.amazon.eventstream`) framed into events for a decoder. */
import type { EventStreamCodec, Message } from '@smithy/eventstream-codec';
import { GatewayError } from '../../errors.ts';
import type { SseEvent, SseParser } from '../../sse/parse.ts';
import { loadAwsPackages } from './load-aws-packages.ts';

/** A message is at most 16 MiB (the framing's own limit is far above what Converse sends). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Prelude (total and headers length, prelude CRC) plus the message CRC. */
const MIN_MESSAGE_BYTES = 16;

/**
 * Creates a parser fed with network reads: each whole message (4-byte big-endian total length first) is
 * decoded and checked (both CRCs) by `@smithy/eventstream-codec`, and handed on as `{event, data}`:
 * an event as its `:event-type` with the JSON payload; an exception as `exception:<:exception-type>`;
 * an error message as `error:<:error-code>` with `{"message": ...}`. Malformed framing throws 502.
 */
export function createEventStreamParser(onEvent: (event: SseEvent) => void): SseParser {
  const { EventStreamCodec: Codec, toUtf8, fromUtf8 } = loadAwsPackages();
  const codec = new Codec(toUtf8, fromUtf8);
  let pending: Buffer = Buffer.alloc(0);
  return {
    stray: '',
    feed(chunk: Buffer | string): void {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      pending = pending.length === 0 ? bytes : Buffer.concat([pending, bytes]);
      while (pending.length >= 4) {
        const total = pending.readUInt32BE(0);
        if (total < MIN_MESSAGE_BYTES || total > MAX_MESSAGE_BYTES) throw unreadable();
        if (pending.length < total) return;
        const message = decodeMessage(codec, pending.subarray(0, total));
        pending = pending.subarray(total);
        onEvent(toEvent(message, toUtf8));
      }
    },
    end(): void {
      if (pending.length > 0) throw new GatewayError(502, 'upstream_stream_failed', 'The vendor stream ended inside a message.');
    },
  };
}

function decodeMessage(codec: EventStreamCodec, bytes: Buffer): Message {
  try {
    return codec.decode(bytes);
  } catch (error) {
    throw unreadable(error);
  }
}

function unreadable(cause?: unknown): GatewayError {
  return new GatewayError(502, 'upstream_invalid_response', 'The vendor sent an unreadable stream message.', { cause });
}

function readHeader(message: Message, name: string): string {
  const header = message.headers[name];
  return header && header.type === 'string' ? header.value : '';
}

function toEvent(message: Message, toUtf8: (bytes: Uint8Array) => string): SseEvent {
  const kind = readHeader(message, ':message-type');
  const data = toUtf8(message.body);
  if (kind === 'exception') return { event: `exception:${readHeader(message, ':exception-type')}`, data };
  if (kind === 'error') return { event: `error:${readHeader(message, ':error-code')}`, data: JSON.stringify({ message: readHeader(message, ':error-message') }) };
  return { event: readHeader(message, ':event-type'), data };
}
