import type { ServerResponse } from 'node:http';
import { formatSse, SSE_HEADERS, writeStream } from '../../../simulators/sim-stream.ts';
import { planClaudeThinking, type ClaudeThinking } from './thinking.ts';
import { countTokens, createEcho, createToolArgs, isObject, readText, splitFragments, splitPieces, truncateWords } from '../../../simulators/text.ts';

/** A reply of the simulated Claude: optional text, then tool_use blocks. */
export interface ClaudeReply {
  text?: string;
  tools: { id: string; name: string; input: Record<string, unknown> }[];
  stopReason: 'end_turn' | 'max_tokens' | 'tool_use';
  /** Uncached input tokens (`input_tokens`). */
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from / written to the prompt cache (0 without `cache_control`). */
  cacheRead: number;
  cacheWrite: number;
  /** The thinking block that starts the reply (thinking on); its tokens are part of `outputTokens`. */
  thinking?: ClaudeThinking;
}

/** Words in `system` and every text / tool_result block of the messages (the simulated input_tokens). */
export function countClaudeInput(body: Record<string, any>): number {
  let n = countTokens(readText(body.system));
  if (Array.isArray(body.messages)) for (const m of body.messages) n += countTokens(readLastText(m?.content));
  return n;
}

/** The text a message carries: its text blocks, or the contents of its tool_result blocks. */
function readLastText(content: unknown): string {
  if (!Array.isArray(content)) return readText(content);
  const results = content.filter((b) => b?.type === 'tool_result');
  if (results.length === 0) return readText(content);
  return results.map((b) => readText(b.content)).join(' ');
}

/**
 * Plans the reply to a messages request: `Echo: <text of the last message>` (its tool_result contents
 * after a tool call), cut to `max_tokens` words (stop_reason max_tokens); with `tools` (and no
 * tool_result in the last message) a short text block then one tool_use per tool, as the fixtures show
 * (the named one for tool_choice tool, the first only with disable_parallel_tool_use, none for "none").
 */
export function planClaudeReply(body: Record<string, any>, nextId: () => string): ClaudeReply {
  const reply = planPlainReply(body, nextId);
  const thinking = planClaudeThinking(body, readLastText(body.messages[body.messages.length - 1]?.content));
  return thinking ? { ...reply, thinking, outputTokens: reply.outputTokens + thinking.tokens } : reply;
}

function planPlainReply(body: Record<string, any>, nextId: () => string): ClaudeReply {
  const last = body.messages[body.messages.length - 1];
  const lastText = readLastText(last?.content);
  const inputTokens = countClaudeInput(body);
  const hasResult = Array.isArray(last?.content) && last.content.some((b: any) => b?.type === 'tool_result');
  const choice = isObject(body.tool_choice) ? body.tool_choice : { type: 'auto' };
  let tools = Array.isArray(body.tools) ? body.tools.filter((t: any) => isObject(t) && isObject(t.input_schema)) : [];
  if (hasResult || choice.type === 'none') tools = [];
  if (choice.type === 'tool') tools = tools.filter((t: any) => t.name === choice.name);
  else if (choice.disable_parallel_tool_use === true) tools = tools.slice(0, 1);
  if (tools.length > 0) {
    const calls = tools.map((t: any) => ({ id: `toolu_${nextId()}`, name: String(t.name), input: createToolArgs(t.input_schema, lastText) }));
    const text = choice.type === 'auto' ? `Calling ${calls.map((c: { name: string }) => c.name).join(', ')}.` : undefined;
    const outputTokens = countTokens(text ?? '') + calls.reduce((n: number, c: any) => n + countTokens(JSON.stringify(c.input)) + 1, 0);
    return { text, tools: calls, stopReason: 'tool_use', inputTokens, outputTokens, cacheRead: 0, cacheWrite: 0 };
  }
  const full = createEcho(lastText);
  const cut = truncateWords(full, body.max_tokens);
  const text = cut ?? full;
  return { text, tools: [], stopReason: cut === undefined ? 'end_turn' : 'max_tokens', inputTokens, outputTokens: countTokens(text), cacheRead: 0, cacheWrite: 0 };
}

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
