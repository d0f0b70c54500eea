/** Converse stream events (framed by event-stream-parser.ts) -> canonical stream events. */
import type { StreamDecoder } from '../../translate/adapter.ts';
import type { StreamEvent } from '../../translate/canonical.ts';
import { isRecord, parseStreamEvent, readIndex } from '../../translate/helpers.ts';
import type { SseEvent } from '../../sse/parse.ts';
import { decodeConverseError } from './decode-error.ts';
import { readConverseStop, readConverseUsage } from './read-converse.ts';
import { toText } from '../../lib/to-text.ts';

/**
 * Decodes `messageStart`, `contentBlockStart` (tool use), `contentBlockDelta` (text, tool input JSON, or
 * `reasoningContent`: thinking text, the signature that closes it, redacted bytes as base64),
 * `contentBlockStop`, `messageStop` (stop reason: the answer is complete), `metadata` (usage) and
 * exceptions (the in-stream error). Unknown events produce nothing.
 */
export function createConverseStreamDecoder(): StreamDecoder {
  const toolIndexes = new Map<number, number>();
  const decoder = {
    done: false,
    decode(event: SseEvent): StreamEvent[] {
      const name = event.event ?? '';
      if (name.startsWith('exception:') || name.startsWith('error:')) {
        const type = name.slice(name.indexOf(':') + 1);
        return [{ type: 'error', error: decodeConverseError(0, parseStreamEvent(event.data), { 'x-amzn-errortype': type }) }];
      }
      const data = parseStreamEvent(event.data);
      switch (name) {
        case 'messageStart':
          return [{ type: 'start' }];
        case 'contentBlockStart':
          return readBlockStart(data, toolIndexes);
        case 'contentBlockDelta':
          return readBlockDelta(data, toolIndexes);
        case 'messageStop':
          decoder.done = true;
          return [{ type: 'finish', reason: readConverseStop(data.stopReason) }];
        case 'metadata':
          return isRecord(data.usage) ? [{ type: 'usage', usage: readConverseUsage(data.usage) }] : [];
        default:
          return [];
      }
    },
  };
  return decoder;
}

function readBlockStart(data: Record<string, any>, toolIndexes: Map<number, number>): StreamEvent[] {
  const use = isRecord(data.start) && isRecord(data.start.toolUse) ? data.start.toolUse : undefined;
  if (!use) return [];
  const index = toolIndexes.size;
  toolIndexes.set(readIndex(data.contentBlockIndex), index);
  return [{ type: 'tool_call_start', index, id: toText(use.toolUseId), name: toText(use.name) }];
}

function readBlockDelta(data: Record<string, any>, toolIndexes: Map<number, number>): StreamEvent[] {
  const delta = isRecord(data.delta) ? data.delta : {};
  if (typeof delta.text === 'string') return delta.text ? [{ type: 'text', text: delta.text }] : [];
  if (isRecord(delta.reasoningContent)) return readReasoningDelta(delta.reasoningContent);
  const input = isRecord(delta.toolUse) ? delta.toolUse.input : undefined;
  const index = toolIndexes.get(readIndex(data.contentBlockIndex));
  return typeof input === 'string' && input && index !== undefined ? [{ type: 'tool_call_delta', index, arguments: input }] : [];
}

function readReasoningDelta(delta: Record<string, unknown>): StreamEvent[] {
  if (typeof delta.text === 'string') return delta.text ? [{ type: 'reasoning', text: delta.text }] : [];
  if (typeof delta.signature === 'string') return delta.signature ? [{ type: 'reasoning_signature', signature: delta.signature }] : [];
  if (typeof delta.redactedContent === 'string') return [{ type: 'reasoning_redacted', data: delta.redactedContent }];
  return [];
}
