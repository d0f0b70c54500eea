/** Messages-protocol stream (vendor side) -> canonical stream events. */
import type { SseEvent } from '../../../sse/parse.ts';
import type { StreamEvent } from '../../../translate/canonical.ts';
import type { StreamDecoder } from '../../../translate/adapter.ts';
import { isRecord, parseStreamEvent, readIndex } from '../../../translate/helpers.ts';
import { hasTextAt, NO_EVENTS, readJsonString, skipDigits } from '../../../translate/stream-text.ts';
import { decodeAnthropicError, readAnthropicStop, readAnthropicUsage } from './response.ts';
import { readMessageDelta, readMessageStart } from './stream-read-message.ts';
import { toText } from '../../../lib/to-text.ts';

/**
 * Decodes a messages stream: `message_start` (id, model, input usage), text and `tool_use` blocks with
 * `text_delta` / `input_json_delta`, `message_delta` (stop reason and cumulative usage), `message_stop`
 * (completion), `error`. Pings produce nothing; `thinking` blocks give reasoning events (`thinking_delta`,
 * then `signature_delta`), `redacted_thinking` blocks one redacted event.
 */
export function createAnthropicStreamDecoder(): StreamDecoder {
  // Made at the first tool call (most answers have none; a Map and its table per stream showed in the allocation profile).
  let toolIndexes: Map<number, number> | undefined;
  // A plain property, not a getter: a decoder is made per stream, and an accessor literal costs more.
  // The list a text delta's event is handed back in: one per stream, not one per delta (StreamDecoder.decode).
  const textEvents: StreamEvent[] = [];
  const decoder = {
    done: false,
    decode(event: SseEvent): readonly StreamEvent[] {
      // Pings and block ends carry nothing the canonical stream needs, nor does the end of the message
      // beyond being there: the name alone decides them. (A name of another length differs at once; one of
      // the same length is compared in V8's runtime when, as here, it is a slice of the read: ~400
      // instructions apiece.)
      const name = event.event;
      if (name === 'ping' || name === 'content_block_stop') return NO_EVENTS;
      if (name === 'message_stop') {
        decoder.done = true;
        return NO_EVENTS;
      }
      // Plain text deltas, the usual empty text block start and the message events are read in place
      // (stream-read-message.ts). Each read gives what the full parse gives for the events it reads,
      // whatever their name (the data's own type decides), so the name only picks which reads are worth
      // trying, by its length (19: content_block_delta, content_block_start; 13: message_start,
      // message_delta), not by comparing its text.
      const length = name === undefined ? 0 : name.length;
      if (length === BLOCK_NAME_LENGTH || length === 0) {
        const text = readTextDelta(event.data);
        if (text !== undefined) {
          if (!text) return NO_EVENTS;
          textEvents[0] = { type: 'text', text };
          return textEvents;
        }
        if (isEmptyTextStart(event.data)) return NO_EVENTS;
      }
      if (length === MESSAGE_NAME_LENGTH || length === 0) {
        const events = readMessageStart(event.data) ?? readMessageDelta(event.data);
        if (events !== undefined) return events;
      }
      const data = parseStreamEvent(event.data);
      const type = typeof data.type === 'string' ? data.type : event.event;
      switch (type) {
        case 'message_start': {
          const message = isRecord(data.message) ? data.message : {};
          return [
            { type: 'start', id: typeof message.id === 'string' ? message.id : undefined, model: typeof message.model === 'string' ? message.model : undefined },
            { type: 'usage', usage: readAnthropicUsage(message.usage) },
          ];
        }
        case 'content_block_start':
          return readBlockStart(data, (toolIndexes ??= new Map()));
        case 'content_block_delta':
          return readBlockDelta(data, toolIndexes);
        case 'message_delta': {
          const delta = isRecord(data.delta) ? data.delta : {};
          const out: StreamEvent[] = [];
          if (delta.stop_reason) {
            const stopSequence = typeof delta.stop_sequence === 'string' ? delta.stop_sequence : undefined;
            out.push({ type: 'finish', reason: readAnthropicStop(delta.stop_reason), ...(stopSequence === undefined ? {} : { stopSequence }) });
          }
          if (isRecord(data.usage)) out.push({ type: 'usage', usage: readAnthropicUsage(data.usage) });
          return out;
        }
        case 'message_stop':
          decoder.done = true;
          return [];
        case 'error':
          return [{ type: 'error', error: decodeAnthropicError(0, data) }];
        default:
          return [];
      }
    },
  };
  return decoder;
}

/** The length of `content_block_delta` and `content_block_start`. */
const BLOCK_NAME_LENGTH = 19;
/** The length of `message_start` and `message_delta`. */
const MESSAGE_NAME_LENGTH = 13;

const TEXT_START_HEAD = '{"type":"content_block_start","index":';
const TEXT_START_TAIL = ',"content_block":{"type":"text","text":""}}';
/** The start of the first block (index 0) as an empty text block: compared whole. */
const FIRST_TEXT_START = `${TEXT_START_HEAD}0${TEXT_START_TAIL}`;

/** Whether `data` is exactly the start of a text block with no text yet (how the API starts one). */
function isEmptyTextStart(data: string): boolean {
  if (data === FIRST_TEXT_START) return true;
  if (!hasTextAt(data, TEXT_START_HEAD, 0)) return false;
  const at = skipDigits(data, TEXT_START_HEAD.length);
  return at > TEXT_START_HEAD.length && data.length === at + TEXT_START_TAIL.length && hasTextAt(data, TEXT_START_TAIL, at);
}

const TEXT_DELTA_HEAD = '{"type":"content_block_delta","index":';
const TEXT_DELTA_FIELD = ',"delta":{"type":"text_delta","text":';
/** The head of a text delta of block 0 (most text deltas): one comparison instead of two and a digit scan. */
const FIRST_TEXT_DELTA_HEAD = `${TEXT_DELTA_HEAD}0${TEXT_DELTA_FIELD}`;
const BRACE_CLOSE = 0x7d;
/** A text delta of block 0 whose literal has no quote or backslash inside: what readTextDelta reads, in one match. */
const FIRST_PLAIN_TEXT_DELTA = /^\{"type":"content_block_delta","index":0,"delta":\{"type":"text_delta","text":"[^"\\]*"\}\}$/;
/** What follows the text of such a delta: its closing quote and two braces. */
const PLAIN_TEXT_DELTA_TAIL = 3;

/**
 * The text of a `text_delta` event written the way the API writes it (most events of a stream), read
 * without parsing the whole event: only its string literal is decoded. Anything else (other key order,
 * extra fields, spaces) gives undefined and goes through the full parse. (Each comparison of a slice
 * makes a string: the block 0 head is compared in one, the closing braces by character.)
 */
function readTextDelta(data: string): string | undefined {
  // Block 0 with a literal free of quotes and escapes (the usual delta): one match of the whole event,
  // the text sliced from between its constant parts.
  if (FIRST_PLAIN_TEXT_DELTA.test(data)) return data.slice(FIRST_TEXT_DELTA_HEAD.length + 1, data.length - PLAIN_TEXT_DELTA_TAIL);
  let text: number;
  if (hasTextAt(data, FIRST_TEXT_DELTA_HEAD, 0)) text = FIRST_TEXT_DELTA_HEAD.length;
  else {
    if (!hasTextAt(data, TEXT_DELTA_HEAD, 0)) return undefined;
    const field = skipDigits(data, TEXT_DELTA_HEAD.length);
    if (field === TEXT_DELTA_HEAD.length || !hasTextAt(data, TEXT_DELTA_FIELD, field)) return undefined;
    text = field + TEXT_DELTA_FIELD.length;
  }
  const end = data.length - 2;
  if (end < text || data.charCodeAt(end) !== BRACE_CLOSE || data.charCodeAt(end + 1) !== BRACE_CLOSE) return undefined;
  return readJsonString(data, text, end);
}

function readBlockStart(data: Record<string, any>, toolIndexes: Map<number, number>): StreamEvent[] {
  const block = isRecord(data.content_block) ? data.content_block : {};
  if (block.type === 'text') return block.text ? [{ type: 'text', text: block.text }] : [];
  if (block.type === 'thinking') return block.thinking ? [{ type: 'reasoning', text: toText(block.thinking) }] : [];
  if (block.type === 'redacted_thinking') return typeof block.data === 'string' ? [{ type: 'reasoning_redacted', data: block.data }] : [];
  if (block.type !== 'tool_use') return [];
  const index = toolIndexes.size;
  toolIndexes.set(readIndex(data.index), index);
  const out: StreamEvent[] = [{ type: 'tool_call_start', index, id: toText(block.id), name: toText(block.name) }];
  if (isRecord(block.input) && Object.keys(block.input).length > 0) {
    out.push({ type: 'tool_call_delta', index, arguments: JSON.stringify(block.input) });
  }
  return out;
}

function readBlockDelta(data: Record<string, any>, toolIndexes?: Map<number, number>): StreamEvent[] {
  const delta = isRecord(data.delta) ? data.delta : {};
  if (delta.type === 'text_delta' && typeof delta.text === 'string' && delta.text) return [{ type: 'text', text: delta.text }];
  if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string' && delta.thinking) return [{ type: 'reasoning', text: delta.thinking }];
  if (delta.type === 'signature_delta' && typeof delta.signature === 'string' && delta.signature) return [{ type: 'reasoning_signature', signature: delta.signature }];
  if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string' && delta.partial_json) {
    const index = toolIndexes?.get(readIndex(data.index));
    if (index !== undefined) return [{ type: 'tool_call_delta', index, arguments: delta.partial_json }];
  }
  return [];
}
