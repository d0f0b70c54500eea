/**
 * Reading a chat-completions text chunk in place (most chunks of a streamed answer) instead of parsing
 * it: the chunk must be the stream's envelope (its `id`, `object`, `created`, `model`... as the first
 * chunk wrote them), one choice whose delta is only `content`, no finish reason, and at most a null usage
 * and an obfuscation string after it. Anything else is parsed in full.
 */
import { hasTextAt, readJsonString } from '../../../translate/stream-text.ts';

const CHOICES = '"choices":[';
const TEXT_DELTA = '{"index":0,"delta":{"content":';
const TEXT_TAIL = '},"logprobs":null,"finish_reason":null}]';
const USAGE_NULL = ',"usage":null';
const OBFUSCATION = ',"obfuscation":';
const BRACE_OPEN = 0x7b;
const BRACE_CLOSE = 0x7d;
const FLAT_ENVELOPE = /^\{[^{}[\]]*$/;

/**
 * The head a text chunk of this stream starts with, read from its first chunk: the envelope up to
 * `"choices":[`, then a content-only delta. Undefined when the envelope nests anything or carries a field
 * the decoder reads (`usage`, `error`): such a stream is always parsed.
 */
export function readTextChunkHead(firstChunk: string): string | undefined {
  const at = firstChunk.indexOf(CHOICES);
  if (at <= 0 || firstChunk.charCodeAt(0) !== BRACE_OPEN) return undefined;
  const envelope = firstChunk.slice(0, at);
  if (!FLAT_ENVELOPE.test(envelope) || envelope.includes('"usage"') || envelope.includes('"error"')) return undefined;
  return envelope + CHOICES + TEXT_DELTA;
}

/** The text of a chunk that is `head`, a content literal and the usual ending; undefined for any other chunk. */
export function readTextChunk(data: string, head: string): string | undefined {
  if (!hasTextAt(data, head, 0)) return undefined;
  const tail = data.indexOf(TEXT_TAIL, head.length);
  if (tail === -1) return undefined;
  const text = readJsonString(data, head.length, tail);
  if (text === undefined) return undefined;
  let at = tail + TEXT_TAIL.length;
  if (hasTextAt(data, USAGE_NULL, at)) at += USAGE_NULL.length;
  const last = data.length - 1;
  if (hasTextAt(data, OBFUSCATION, at)) {
    if (readJsonString(data, at + OBFUSCATION.length, last) === undefined) return undefined;
    at = last;
  }
  return at === last && data.charCodeAt(last) === BRACE_CLOSE ? text : undefined;
}
