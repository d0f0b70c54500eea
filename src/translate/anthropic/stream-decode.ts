/** Messages-protocol stream (vendor side) -> canonical stream events. */
import type { SseEvent } from '../../sse/parse.ts';
import type { StreamEvent } from '../canonical.ts';
import type { StreamDecoder } from '../adapter.ts';
import { isRecord } from '../helpers.ts';
import { GatewayError } from '../../errors.ts';
import { decodeAnthropicError, readAnthropicStop, readAnthropicUsage } from './response.ts';

/**
 * Decodes a messages stream: `message_start` (id, model, input usage), text and `tool_use` blocks with
 * `text_delta` / `input_json_delta`, `message_delta` (stop reason and cumulative usage), `message_stop`
 * (completion), `error`. Pings and thinking blocks produce nothing.
 */
export function createAnthropicStreamDecoder(): StreamDecoder {
  let done = false;
  const toolIndexes = new Map<number, number>();
  return {
    get done() {
      return done;
    },
    decode(event: SseEvent): StreamEvent[] {
      const data = parseEvent(event.data);
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
          return readBlockStart(data, toolIndexes);
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
          done = true;
          return [];
        case 'error':
          return [{ type: 'error', error: decodeAnthropicError(0, data) }];
        default:
          return [];
      }
    },
  };
}

function parseEvent(text: string): Record<string, any> {
  try {
    const data: unknown = JSON.parse(text);
    if (isRecord(data)) return data;
  } catch {
    // fall through
  }
  throw new GatewayError(502, 'upstream_invalid_response', 'The vendor sent an unreadable stream event.');
}

function readBlockStart(data: Record<string, any>, toolIndexes: Map<number, number>): StreamEvent[] {
  const block = isRecord(data.content_block) ? data.content_block : {};
  if (block.type === 'text') return block.text ? [{ type: 'text', text: block.text }] : [];
  if (block.type !== 'tool_use') return [];
  const index = toolIndexes.size;
  toolIndexes.set(Number(data.index), index);
  const out: StreamEvent[] = [{ type: 'tool_call_start', index, id: String(block.id ?? ''), name: String(block.name ?? '') }];
  if (isRecord(block.input) && Object.keys(block.input).length > 0) {
    out.push({ type: 'tool_call_delta', index, arguments: JSON.stringify(block.input) });
  }
  return out;
}

function readBlockDelta(data: Record<string, any>, toolIndexes: Map<number, number>): StreamEvent[] {
  const delta = isRecord(data.delta) ? data.delta : {};
  if (delta.type === 'text_delta' && typeof delta.text === 'string' && delta.text) return [{ type: 'text', text: delta.text }];
  if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string' && delta.partial_json) {
    const index = toolIndexes.get(Number(data.index));
    if (index !== undefined) return [{ type: 'tool_call_delta', index, arguments: delta.partial_json }];
  }
  return [];
}
