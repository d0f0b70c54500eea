/** Canonical request -> chat-completions request (for a vendor speaking that protocol). */
import type { CanonicalMessage, CanonicalRequest, ContentPart } from '../../../translate/canonical.ts';
import type { EncodeOptions, VendorCall } from '../../../translate/adapter.ts';
import type { FieldPolicy } from '../../../translate/field-policy.ts';
import { getImageUrl } from '../../../translate/helpers.ts';
import { dropCacheControl } from '../../../translate/cache-control.ts';
import { getReasoningEffort } from '../../../translate/reasoning-budget.ts';
import { writeCallExtra } from './reasoning.ts';
import { findSignedText } from '../../../translate/reasoning-parts.ts';

/**
 * Builds the chat-completions call. The output limit is sent as `max_completion_tokens` (the current
 * name; the older `max_tokens` is refused by reasoning models). Streaming always asks for the final
 * usage chunk so the gateway can count tokens. Reasoning is asked by `reasoning_effort` (a budget becomes
 * the smallest effort that covers it); earlier reasoning is not sent back (compatible vendors reject
 * `reasoning_content` in input), only a tool call's (or a text's, on its message) own signature as
 * `extra_content.google.thought_signature`.
 */
export function encodeOpenAIChatRequest(request: CanonicalRequest, options: EncodeOptions): VendorCall {
  const { policy } = options;
  const body: Record<string, unknown> = { model: options.model, messages: writeMessages(request, policy) };
  if (request.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  if (request.maxTokens !== undefined) body[options.maxTokensField ?? 'max_completion_tokens'] = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.topK !== undefined) policy.drop('topK');
  if (request.stopSequences) body.stop = request.stopSequences;
  if (request.presencePenalty !== undefined) body.presence_penalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) body.frequency_penalty = request.frequencyPenalty;
  if (request.seed !== undefined) body.seed = request.seed;
  if (request.user !== undefined) body.user = request.user;
  if (request.reasoning?.enabled) body.reasoning_effort = getReasoningEffort(request.reasoning, options.reasoningBudgets);
  dropCacheControl(request, policy);
  if (request.tools) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, ...(tool.description === undefined ? {} : { description: tool.description }), parameters: tool.parameters },
    }));
  }
  if (request.toolChoice) {
    body.tool_choice = request.toolChoice.type === 'tool'
      ? { type: 'function', function: { name: request.toolChoice.name } }
      : request.toolChoice.type;
  }
  if (request.parallelToolCalls !== undefined && request.tools) body.parallel_tool_calls = request.parallelToolCalls;
  const format = request.responseFormat;
  if (format?.type === 'json_object') body.response_format = { type: 'json_object' };
  if (format?.type === 'json_schema') {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: format.name ?? 'response', schema: format.schema ?? {}, ...(format.strict ? { strict: true } : {}) },
    };
  }
  return { path: '/chat/completions', body };
}

function writeMessages(request: CanonicalRequest, policy: FieldPolicy): unknown[] {
  const out: unknown[] = [];
  if (request.system) out.push({ role: 'system', content: request.system });
  for (const message of request.messages) {
    if (message.role === 'assistant') out.push(writeAssistant(message));
    else writeUser(message.content, out, policy);
  }
  return out;
}

function writeAssistant(message: CanonicalMessage): unknown {
  const text = message.content.filter((part) => part.type === 'text').map((part) => part.text).join('');
  const calls = message.content.filter((part) => part.type === 'tool_call');
  const out: Record<string, unknown> = { role: 'assistant', content: text || null };
  Object.assign(out, writeCallExtra(findSignedText(message.content)?.signature));
  if (calls.length > 0) {
    out.tool_calls = calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments }, ...writeCallExtra(call.signature) }));
  }
  return out;
}

/** Tool results become `tool` messages (first, as they answer the previous turn); the rest one user message. */
function writeUser(parts: ContentPart[], out: unknown[], policy: FieldPolicy): void {
  const rest: unknown[] = [];
  for (const part of parts) {
    if (part.type === 'tool_result') {
      if (part.content.some((item) => item.type === 'image')) policy.drop('messages', 'images in tool results have no equivalent');
      const text = part.content.filter((item) => item.type === 'text').map((item) => item.text).join('\n');
      out.push({ role: 'tool', tool_call_id: part.toolCallId, content: text });
    } else if (part.type === 'text') {
      rest.push({ type: 'text', text: part.text });
    } else if (part.type === 'image') {
      const imageUrl: Record<string, string> = { url: getImageUrl(part.source) };
      if (part.detail) imageUrl.detail = part.detail;
      rest.push({ type: 'image_url', image_url: imageUrl });
    }
  }
  if (rest.length === 0) return;
  const only = rest[0] as { type: string; text?: string };
  out.push({ role: 'user', content: rest.length === 1 && only.type === 'text' ? only.text : rest });
}
