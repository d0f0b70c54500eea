import type { ServerResponse } from 'node:http';
import { formatSse, SSE_HEADERS, writeStream } from '../../../simulators/sim-stream.ts';
import type { ClaudeReply } from '../../../simulators/claude-chat.ts';
import { splitFragments, splitPieces } from '../../../simulators/text.ts';

/** The non-stream `message` object (fixtures/anthropic/messages-response.json). */
export function createClaudeMessage(id: string, model: string, reply: ClaudeReply): unknown {
  const content: unknown[] = [];
  if (reply.thinking) content.push({ type: 'thinking', thinking: reply.thinking.text, signature: reply.thinking.signature });
  if (reply.text !== undefined) content.push({ type: 'text', text: reply.text });
  for (const t of reply.tools) content.push({ type: 'tool_use', id: t.id, name: t.name, input: t.input });
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: reply.stopReason,
    stop_sequence: null,
    usage: {
      input_tokens: reply.inputTokens,
      cache_creation_input_tokens: reply.cacheWrite,
      cache_read_input_tokens: reply.cacheRead,
      output_tokens: reply.outputTokens,
      service_tier: 'standard',
    },
  };
}

/**
 * Streams a reply exactly like fixtures/anthropic/messages-stream.sse and messages-tools-stream.sse, or,
 * with `deltaUsage: 'output-only'`, with `output_tokens` alone in `message_delta.usage` (as
 * fixtures/anthropic/messages-stream-output-only-usage.sse).
 */
export function streamClaudeMessage(
  res: ServerResponse,
  id: string,
  model: string,
  reply: ClaudeReply,
  headers: Record<string, string>,
  pacing: { streamEvents?: number; streamIntervalMs: number; deltaUsage?: 'repeat-input' | 'output-only' },
): void | Promise<void> {
  const ev = (type: string, data: unknown): string => formatSse(JSON.stringify(data), type);
  const usage = { input_tokens: reply.inputTokens, cache_creation_input_tokens: reply.cacheWrite, cache_read_input_tokens: reply.cacheRead };
  const deltaUsage = pacing.deltaUsage === 'output-only' ? { output_tokens: reply.outputTokens } : { ...usage, output_tokens: reply.outputTokens };
  const start = { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1, service_tier: 'standard' } };
  const head = [ev('message_start', { type: 'message_start', message: start })];
  const paced: string[] = [];
  let index = 0;
  let textStop: string | undefined;
  if (reply.thinking) {
    head.push(ev('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
    paced.push(ev('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: reply.thinking.text } }));
    paced.push(ev('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: reply.thinking.signature } }));
    paced.push(ev('content_block_stop', { type: 'content_block_stop', index }));
    index++;
  }
  if (reply.text !== undefined) {
    (reply.thinking ? paced : head).push(ev('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
    head.push('event: ping\ndata: {"type": "ping"}\n\n');
    for (const text of splitPieces(reply.text, pacing.streamEvents)) {
      paced.push(ev('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } }));
    }
    textStop = ev('content_block_stop', { type: 'content_block_stop', index });
    if (reply.tools.length > 0) paced.push(textStop);
    index++;
  } else {
    head.push('event: ping\ndata: {"type": "ping"}\n\n');
  }
  for (const tool of reply.tools) {
    paced.push(ev('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: tool.id, name: tool.name, input: {} } }));
    for (const partial_json of ['', ...splitFragments(JSON.stringify(tool.input))]) {
      paced.push(ev('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }));
    }
    paced.push(ev('content_block_stop', { type: 'content_block_stop', index }));
    index++;
  }
  const tail = [
    ...(textStop !== undefined && reply.tools.length === 0 ? [textStop] : []),
    ev('message_delta', { type: 'message_delta', delta: { stop_reason: reply.stopReason, stop_sequence: null }, usage: deltaUsage }),
    ev('message_stop', { type: 'message_stop' }),
  ];
  return writeStream(res, { ...SSE_HEADERS, ...headers }, { head, paced, tail }, pacing.streamIntervalMs);
}
