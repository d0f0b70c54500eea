/** Canonical stream events -> responses-style stream (client side). */
import { formatSseJson } from '../../sse/write.ts';
import type { CanonicalRequest, CanonicalUsage, FinishReason } from '../canonical.ts';
import { mergeUsage } from '../canonical.ts';
import type { ResponseMeta, StreamEncoder } from '../adapter.ts';
import { withIdPrefix } from '../helpers.ts';
import { createFunctionCallItem, createMessageItem, createResponseObject, createTextPart, getResponseStatus, type OutputItem } from './response.ts';

interface OpenItem {
  outputIndex: number;
  item: OutputItem;
  text: string;
}

/**
 * Encodes a responses-style stream: `response.created`, `response.in_progress`, then per output item
 * `output_item.added` (+ `content_part.added` for a message), `output_text.delta` or
 * `function_call_arguments.delta`, the matching `.done` events and `output_item.done`, and finally
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

  return {
    encode(event) {
      switch (event.type) {
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
          const head = start() + close();
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
