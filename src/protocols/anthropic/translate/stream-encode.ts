/** Canonical stream events -> messages-protocol stream (client side). */
import { formatSseJson } from '../../../sse/write.ts';
import type { CanonicalUsage, FinishReason } from '../../../translate/canonical.ts';
import { mergeUsage } from '../../../translate/canonical.ts';
import type { ResponseMeta, StreamEncoder } from '../../../translate/adapter.ts';
import { withIdPrefix } from '../../../translate/helpers.ts';
import { writeAnthropicStop, writeAnthropicUsage } from './response.ts';
import { wrapSignature } from '../../../translate/reasoning-signature.ts';
import { writeCallSignature } from '../../../translate/reasoning-parts.ts';
import { writeJsonString } from '../../../translate/stream-text.ts';

function send(type: string, payload: Record<string, unknown>): string {
  return formatSseJson({ type, ...payload }, type);
}

/**
 * A `content_block_delta` event whose delta is one string field (text, thinking, tool arguments: most
 * events of a stream), written as a template: byte for byte what `send` gives for
 * `{ index, delta: { type, [field]: value } }`, without building and serialising the objects.
 */
function sendDelta(index: number, type: string, field: string, value: string): string {
  return `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":{"type":"${type}","${field}":${writeJsonString(value)}}}\n\n`;
}

/**
 * Encodes a messages stream, every event with its `event:` line (the SDK drops events without one):
 * `message_start` (sent with the first content, so it carries the input usage known by then, or the
 * gateway's estimate), `content_block_start` / `text_delta` or `input_json_delta` / `content_block_stop` per block (a block
 * closes when the next one starts; reasoning as `thinking` blocks with `thinking_delta` and a
 * `signature_delta` carrying the gateway's token, redacted thinking as a whole `redacted_thinking` block,
 * a tool call's signature in a `thinking` block before its `tool_use`, a text's in one after its text), then at the end `message_delta` with the stop reason and the full
 * usage (the SDK's finalMessage() needs it), and `message_stop`.
 */
export function createAnthropicStreamEncoder(meta: ResponseMeta): StreamEncoder {
  const id = withIdPrefix('msg_', meta.id);
  let started = false;
  let usage: CanonicalUsage = {};
  let openBlock: { index: number; kind: Kind } | undefined;
  let nextBlock = 0;
  const toolBlocks = new Map<number, number>();
  /** A thinking block's signature: the block then takes no more text. */
  const sign = (signature: string): string => {
    const head = start() + (openBlock?.kind === 'thinking' ? '' : open('thinking', { type: 'thinking', thinking: '', signature: '' }));
    const text = head + sendDelta(openBlock!.index, 'signature_delta', 'signature', signature);
    openBlock!.kind = 'signed';
    return text;
  };
  let finish: { reason: FinishReason; stopSequence?: string } | undefined;

  const start = (): string => {
    if (started) return '';
    started = true;
    // The input count the vendor reported by now, else the gateway's estimate (clients read it here);
    // no output yet: clients add message_delta's output count to this one.
    const inputTokens = usage.inputTokens ?? meta.estimateInputTokens?.();
    const message = {
      id, type: 'message', role: 'assistant', model: meta.model, content: [], stop_reason: null, stop_sequence: null,
      usage: writeAnthropicUsage({ ...usage, inputTokens, outputTokens: 0 }),
    };
    return send('message_start', { message });
  };
  const close = (): string => {
    if (!openBlock) return '';
    const text = send('content_block_stop', { index: openBlock.index });
    openBlock = undefined;
    return text;
  };
  const open = (kind: Kind, block: Record<string, unknown>): string => {
    const text = close() + send('content_block_start', { index: nextBlock, content_block: block });
    openBlock = { index: nextBlock, kind };
    nextBlock += 1;
    return text;
  };

  return {
    encode(event) {
      switch (event.type) {
        case 'usage':
          usage = mergeUsage(usage, event.usage);
          return '';
        case 'text': {
          const head = start() + (openBlock?.kind === 'text' ? '' : open('text', { type: 'text', text: '' }));
          return head + sendDelta(openBlock!.index, 'text_delta', 'text', event.text);
        }
        case 'reasoning': {
          const head = start() + (openBlock?.kind === 'thinking' ? '' : open('thinking', { type: 'thinking', thinking: '', signature: '' }));
          return head + sendDelta(openBlock!.index, 'thinking_delta', 'thinking', event.text);
        }
        case 'reasoning_signature':
          return sign(wrapSignature({ origin: event.origin ?? meta.origin, signature: event.signature }));
        case 'text_signature':
          return sign(wrapSignature({ origin: event.origin ?? meta.origin, signature: event.signature, text: true }));
        case 'reasoning_redacted':
          return start() + open('signed', { type: 'redacted_thinking', data: wrapSignature({ origin: event.origin ?? meta.origin, redacted: event.data }) });
        case 'tool_call_start': {
          const token = writeCallSignature(event.signature, event.origin ?? meta.origin, event.id);
          const head = (token === undefined ? '' : close() + sign(token)) + start() + open('tool', { type: 'tool_use', id: event.id, name: event.name, input: {} });
          toolBlocks.set(event.index, openBlock!.index);
          return head;
        }
        case 'tool_call_delta': {
          const index = toolBlocks.get(event.index);
          if (index === undefined) return '';
          return sendDelta(index, 'input_json_delta', 'partial_json', event.arguments);
        }
        case 'finish':
          finish ??= { reason: event.reason, stopSequence: event.stopSequence };
          return '';
        default:
          return '';
      }
    },
    end() {
      const reason = finish?.reason ?? 'stop';
      const delta = { stop_reason: writeAnthropicStop(reason, finish?.stopSequence), stop_sequence: finish?.stopSequence ?? null };
      return start() + close() + send('message_delta', { delta, usage: writeAnthropicUsage(usage) }) + send('message_stop', {});
    },
  };
}

/** What the open content block is: text, a tool call, thinking taking text, or thinking that is complete. */
type Kind = 'text' | 'tool' | 'thinking' | 'signed';
