/** Canonical stream events -> responses-style stream (client side). */
import { formatSseJson } from '../../../sse/write.ts';
import type { CanonicalRequest, CanonicalUsage, FinishReason } from '../../../translate/canonical.ts';
import { mergeUsage } from '../../../translate/canonical.ts';
import type { ResponseMeta, StreamEncoder } from '../../../translate/adapter.ts';
import { withIdPrefix } from '../../../translate/helpers.ts';
import {
  createFunctionCallItem, createMessageItem, createReasoningItem, createResponseObject, createSummaryPart, createTextPart, getResponseStatus, type OutputItem,
} from './response.ts';
import { wrapSignature } from '../../../translate/reasoning-signature.ts';
import { writeCallSignature } from '../../../translate/reasoning-parts.ts';

interface OpenItem {
  outputIndex: number;
  item: OutputItem;
  text: string;
  /** A reasoning item's token (`encrypted_content`). */
  token?: string;
}

/**
 * Encodes a responses-style stream: `response.created`, `response.in_progress`, then per output item
 * `output_item.added` (+ `content_part.added` for a message), `output_text.delta` or
 * `function_call_arguments.delta` (a reasoning item: `reasoning_summary_part.added`,
 * `reasoning_summary_text.delta`; its signature token, once known, in the item's `encrypted_content`;
 * a call's signature in a reasoning item of its own before the call, a text's in one after its message), the matching `.done` events and `output_item.done`, and finally
 * `response.completed` (or `response.incomplete`) with the whole response and usage. Every event has
 * its `event:` line and a monotonic `sequence_number`.
 */
export function createResponsesStreamEncoder(meta: ResponseMeta, request: CanonicalRequest): StreamEncoder {
  let sequence = 0;
  let started = false;
  let usage: CanonicalUsage = {};
  let finish: FinishReason | undefined;
  const output: OutputItem[] = [];
  const tools = new Map<number, OpenItem>();
  let current: OpenItem | undefined;
  /** The closing events of the open item, once result() has closed it. */
  let closing: string | undefined;

  const send = (type: string, payload: Record<string, unknown>): string => formatSseJson({ type, sequence_number: sequence++, ...payload }, type);
  const start = (): string => {
    if (started) return '';
    started = true;
    const response = createResponseObject(meta, request, [], null);
    return send('response.created', { response }) + send('response.in_progress', { response });
  };
  const add = (item: OutputItem): OpenItem => {
    const open = { outputIndex: output.length, item, text: '' };
    output.push(item);
    return open;
  };
  const close = (): string => {
    const open = current;
    if (!open) return '';
    current = undefined;
    const { item, outputIndex } = open;
    const at = { item_id: item.id, output_index: outputIndex };
    if (item.type === 'reasoning') {
      const done = createReasoningItem(item.id, open.text, open.token);
      output[outputIndex] = done;
      const summary = !open.text ? '' : send('response.reasoning_summary_text.done', { ...at, summary_index: 0, text: open.text })
        + send('response.reasoning_summary_part.done', { ...at, summary_index: 0, part: createSummaryPart(open.text) });
      return summary + send('response.output_item.done', { output_index: outputIndex, item: done });
    }
    if (item.type === 'message') {
      const done = createMessageItem(item.id, open.text);
      output[outputIndex] = done;
      return send('response.output_text.done', { ...at, content_index: 0, text: open.text, logprobs: [] })
        + send('response.content_part.done', { ...at, content_index: 0, part: createTextPart(open.text) })
        + send('response.output_item.done', { output_index: outputIndex, item: done });
    }
    const done = createFunctionCallItem(item.id, item.call_id, item.name, open.text);
    output[outputIndex] = done;
    return send('response.function_call_arguments.done', { ...at, name: item.name, arguments: open.text })
      + send('response.output_item.done', { output_index: outputIndex, item: done });
  };

  /** Opens a reasoning item (closing the open item) unless one is open and takes `more`. */
  const openReasoning = (more: boolean): string => {
    if (current?.item.type === 'reasoning' && current.token === undefined && more) return '';
    const head = start() + close();
    current = add(createReasoningItem(withIdPrefix('rs_', `${meta.id}_${output.length}`)));
    return head + send('response.output_item.added', { output_index: current.outputIndex, item: current.item });
  };
  /** Seals the open reasoning item with a token and closes it. */
  const seal = (token: string): string => {
    const head = openReasoning(true);
    current!.token = token;
    return head + close();
  };

  return {
    encode(event) {
      switch (event.type) {
        case 'reasoning': {
          const head = openReasoning(true);
          const open = current!;
          const at = { item_id: open.item.id, output_index: open.outputIndex, summary_index: 0 };
          const added = open.text ? '' : send('response.reasoning_summary_part.added', { ...at, part: createSummaryPart('') });
          open.text += event.text;
          return head + added + send('response.reasoning_summary_text.delta', { ...at, delta: event.text });
        }
        case 'reasoning_signature':
          return seal(wrapSignature({ origin: event.origin ?? meta.origin, signature: event.signature }));
        case 'reasoning_redacted':
          return openReasoning(false) + seal(wrapSignature({ origin: event.origin ?? meta.origin, redacted: event.data }));
        case 'text_signature':
          return openReasoning(false) + seal(wrapSignature({ origin: event.origin ?? meta.origin, signature: event.signature, text: true }));
        case 'usage':
          usage = mergeUsage(usage, event.usage);
          return '';
        case 'finish':
          finish ??= event.reason;
          return '';
        case 'text': {
          let head = start();
          if (current?.item.type !== 'message') {
            head += close();
            current = add(createMessageItem(withIdPrefix('msg_', `${meta.id}_${output.length}`)));
            const at = { item_id: current.item.id, output_index: current.outputIndex };
            head += send('response.output_item.added', { output_index: current.outputIndex, item: current.item })
              + send('response.content_part.added', { ...at, content_index: 0, part: createTextPart('') });
          }
          current.text += event.text;
          return head + send('response.output_text.delta', { item_id: current.item.id, output_index: current.outputIndex, content_index: 0, delta: event.text, logprobs: [] });
        }
        case 'tool_call_start': {
          const token = writeCallSignature(event.signature, event.origin ?? meta.origin, event.id);
          const head = (token === undefined ? start() + close() : openReasoning(false) + seal(token));
          current = add(createFunctionCallItem(withIdPrefix('fc_', `${meta.id}_${output.length}`), event.id, event.name, '', 'in_progress'));
          tools.set(event.index, current);
          return head + send('response.output_item.added', { output_index: current.outputIndex, item: current.item });
        }
        case 'tool_call_delta': {
          const open = tools.get(event.index);
          if (!open) return '';
          open.text += event.arguments;
          return send('response.function_call_arguments.delta', { item_id: open.item.id, output_index: open.outputIndex, delta: event.arguments });
        }
        default:
          return '';
      }
    },
    result() {
      // The open item is closed now; its closing events wait for end().
      if (closing === undefined) closing = start() + close();
      return createResponseObject(meta, request, output, usage, finish);
    },
    end() {
      const head = closing ?? start() + close();
      closing = '';
      const response = createResponseObject(meta, request, output, usage, finish);
      const type = getResponseStatus(finish) === 'completed' ? 'response.completed' : 'response.incomplete';
      return head + send(type, { response });
    },
  };
}
