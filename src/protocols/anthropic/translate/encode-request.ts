/** Canonical request -> messages-protocol request (for a vendor speaking that protocol). */
import type { CanonicalRequest, ContentPart, ImagePart, TextPart } from '../../../translate/canonical.ts';
import type { EncodeOptions, VendorCall } from '../../../translate/adapter.ts';
import { joinTurns, parseToolArguments } from '../../../translate/helpers.ts';
import { placeCacheBreakpoints } from '../../../translate/cache-control.ts';
import { fitThinkingSampling, writeThinking } from './thinking.ts';

/**
 * Builds the messages call. `max_tokens` is required by the protocol: the client's value, else the
 * model's `chat.defaultMaxTokens`. Consecutive turns of one role are merged, empty text blocks and empty
 * turns are left out (the protocol rejects both), and tool results lead their user turn.
 * Temperature arrives inside the protocol's 0..1 (request-facts.ts clamps it, or rejects it). Prompt-cache
 * breakpoints are written as `cache_control` (the system prompt then becomes one text block); with
 * `cache: auto` they are placed for a client that set none (cache-control.ts).
 */
export function encodeAnthropicRequest(client: CanonicalRequest, options: EncodeOptions): VendorCall {
  const { policy } = options;
  const request = options.cache === 'auto' ? placeCacheBreakpoints(client) : client;
  const body: Record<string, unknown> = {
    model: options.model,
    max_tokens: request.maxTokens ?? options.defaultMaxTokens,
    messages: writeMessages(request),
  };
  if (request.system) {
    body.system = request.systemCacheControl ? [{ type: 'text', text: request.system, cache_control: request.systemCacheControl }] : request.system;
  }
  if (request.stopSequences) body.stop_sequences = request.stopSequences;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.topK !== undefined) body.top_k = request.topK;
  if (request.stream) body.stream = true;
  writeThinking(body, request, options);
  if (request.presencePenalty !== undefined) policy.drop('presencePenalty');
  if (request.frequencyPenalty !== undefined) policy.drop('frequencyPenalty');
  if (request.seed !== undefined) policy.drop('seed');
  if (request.responseFormat && request.responseFormat.type !== 'text') policy.drop('responseFormat');
  if (request.user !== undefined) body.metadata = { user_id: request.user };
  if (request.tools) {
    body.tools = request.tools.map((tool) => ({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      input_schema: { type: 'object', ...tool.parameters },
      ...(tool.cacheControl ? { cache_control: tool.cacheControl } : {}),
    }));
  }
  const choice = writeToolChoice(request);
  if (choice) body.tool_choice = choice;
  fitThinkingSampling(body, request, options.policy);
  return { path: '/v1/messages', body };
}

function writeToolChoice(request: CanonicalRequest): Record<string, unknown> | undefined {
  const { toolChoice } = request;
  let choice: Record<string, unknown> | undefined;
  if (toolChoice?.type === 'auto' || toolChoice?.type === 'none') choice = { type: toolChoice.type };
  else if (toolChoice?.type === 'required') choice = { type: 'any' };
  else if (toolChoice?.type === 'tool') choice = { type: 'tool', name: toolChoice.name };
  if (request.parallelToolCalls === false && request.tools && choice?.type !== 'none') {
    choice = { ...(choice ?? { type: 'auto' }), disable_parallel_tool_use: true };
  }
  return choice;
}

function writeMessages(request: CanonicalRequest): Array<{ role: string; content: unknown[] }> {
  const writeBlocks = (content: readonly ContentPart[]) => content.map((part) => writeMarkedBlock(part)).filter((block) => block !== undefined);
  return joinTurns<unknown>(request.messages, writeBlocks, (block) => (block as { type: string }).type === 'tool_result');
}

/** A content block with the part's prompt-cache breakpoint. */
function writeMarkedBlock(part: ContentPart): Record<string, unknown> | undefined {
  const block = writeBlock(part);
  if (block && part.cacheControl) block.cache_control = part.cacheControl;
  return block;
}

function writeBlock(part: ContentPart): Record<string, unknown> | undefined {
  switch (part.type) {
    case 'text':
      return part.text ? { type: 'text', text: part.text } : undefined;
    case 'image':
      return writeImage(part);
    case 'reasoning':
      // Thinking goes back only with what verifies it (a foreign signature was stripped before).
      if (part.redacted !== undefined) return { type: 'redacted_thinking', data: part.redacted };
      return part.signature ? { type: 'thinking', thinking: part.text, signature: part.signature } : undefined;
    case 'tool_call':
      return { type: 'tool_use', id: part.id, name: part.name, input: parseToolArguments(part.arguments, 'messages') };
    case 'tool_result': {
      const textOnly = part.content.every((item) => item.type === 'text');
      const content = textOnly
        ? part.content.map((item) => (item as TextPart).text).join('\n')
        : part.content.filter((item) => item.type === 'image' || item.text).map((item) => (item.type === 'text' ? writeText(item) : writeImage(item)));
      const result: Record<string, unknown> = { type: 'tool_result', tool_use_id: part.toolCallId, content };
      if (part.isError) result.is_error = true;
      return result;
    }
  }
}

function writeText(part: TextPart): Record<string, unknown> {
  return { type: 'text', text: part.text };
}

function writeImage(part: ImagePart): Record<string, unknown> {
  const { source } = part;
  return source.kind === 'base64'
    ? { type: 'image', source: { type: 'base64', media_type: source.mediaType, data: source.data } }
    : { type: 'image', source: { type: 'url', url: source.url } };
}
