/** Canonical answer -> responses-style response object (shared by the non-stream and stream encoders). */
import type { CanonicalRequest, CanonicalResponse, CanonicalUsage, FinishReason } from '../../../translate/canonical.ts';
import { getTotalTokens } from '../../../translate/canonical.ts';
import type { ResponseMeta } from '../../../translate/adapter.ts';
import { withIdPrefix } from '../../../translate/helpers.ts';
import { writeCallSignature, writeReasoningToken, writeTextSignature } from '../../../translate/reasoning-parts.ts';

/** A responses-style output item (message or function call). */
export type OutputItem = Record<string, any>;

/** Writes canonical usage as a responses-style `usage` object. */
export function writeResponsesUsage(usage: CanonicalUsage): Record<string, unknown> {
  return {
    input_tokens: usage.inputTokens ?? 0,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    output_tokens: usage.outputTokens ?? 0,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: getTotalTokens(usage),
  };
}

/** `incomplete` for a length or content-filter stop, else `completed`. */
export function getResponseStatus(reason: FinishReason | undefined): 'completed' | 'incomplete' {
  return reason === 'length' || reason === 'content_filter' ? 'incomplete' : 'completed';
}

/**
 * The response object: finished (`usage` given) or in progress (`usage` null, no output yet), echoing
 * the request's settings as the style does.
 */
export function createResponseObject(
  meta: ResponseMeta,
  request: CanonicalRequest,
  output: OutputItem[],
  usage: CanonicalUsage | null,
  finish?: FinishReason,
): Record<string, unknown> {
  const status = usage === null ? 'in_progress' : getResponseStatus(finish);
  const incomplete = status !== 'incomplete' ? null : { reason: finish === 'length' ? 'max_output_tokens' : 'content_filter' };
  return {
    id: withIdPrefix('resp_', meta.id),
    object: 'response',
    created_at: meta.created,
    status,
    error: null,
    incomplete_details: incomplete,
    instructions: request.system ?? null,
    max_output_tokens: request.maxTokens ?? null,
    model: meta.model,
    output,
    parallel_tool_calls: request.parallelToolCalls ?? true,
    previous_response_id: meta.previousResponseId ?? null,
    reasoning: { effort: request.reasoning?.enabled ? request.reasoning.effort ?? null : null, summary: request.reasoning?.include ? 'auto' : null },
    store: meta.store ?? false,
    temperature: request.temperature ?? null,
    text: { format: { type: request.responseFormat?.type ?? 'text' } },
    tool_choice: request.toolChoice?.type === 'tool' ? { type: 'function', name: request.toolChoice.name } : request.toolChoice?.type ?? 'auto',
    tools: (request.tools ?? []).map((tool) => ({ type: 'function', name: tool.name, description: tool.description ?? null, parameters: tool.parameters, strict: false })),
    top_p: request.topP ?? null,
    truncation: 'disabled',
    usage: usage === null ? null : writeResponsesUsage(usage),
    user: request.user ?? null,
    metadata: {},
  };
}

/** An assistant message item: finished with `text`, or in progress (no content yet) without. */
export function createMessageItem(id: string, text?: string): OutputItem {
  if (text === undefined) return { id, type: 'message', status: 'in_progress', role: 'assistant', content: [] };
  return { id, type: 'message', status: 'completed', role: 'assistant', content: [createTextPart(text)] };
}

/** An `output_text` content part. */
export function createTextPart(text: string): Record<string, unknown> {
  return { type: 'output_text', text, annotations: [], logprobs: [] };
}

/** A function call item. */
export function createFunctionCallItem(id: string, callId: string, name: string, args: string, status = 'completed'): OutputItem {
  return { id, type: 'function_call', status, call_id: callId, name, arguments: args };
}

/**
 * A reasoning item: summary text (none while in progress) and, when there is a signature or redacted
 * thinking, the gateway's token as `encrypted_content` (always: the client need not ask with `include`).
 */
export function createReasoningItem(id: string, text?: string, token?: string): OutputItem {
  const item: OutputItem = { id, type: 'reasoning', summary: text ? [createSummaryPart(text)] : [] };
  if (token !== undefined) item.encrypted_content = token;
  return item;
}

/** A `summary_text` part. */
export function createSummaryPart(text: string): Record<string, unknown> {
  return { type: 'summary_text', text };
}

/**
 * Writes a canonical answer as a responses-style response (text runs become message items; a signed
 * text's token is a reasoning item of its own after its message).
 */
export function encodeResponsesResponse(response: CanonicalResponse, meta: ResponseMeta, request: CanonicalRequest): unknown {
  const output: OutputItem[] = [];
  let text: string | undefined;
  const flush = (): void => {
    if (text !== undefined) output.push(createMessageItem(withIdPrefix('msg_', `${meta.id}_${output.length}`), text));
    text = undefined;
  };
  for (const part of response.content) {
    if (part.type === 'text') {
      text = (text ?? '') + part.text;
      const token = writeTextSignature(part.signature, part.origin ?? meta.origin);
      if (token === undefined) continue;
      flush();
      output.push(createReasoningItem(withIdPrefix('rs_', `${meta.id}_${output.length}`), undefined, token));
    } else if (part.type === 'reasoning') {
      flush();
      output.push(createReasoningItem(withIdPrefix('rs_', `${meta.id}_${output.length}`), part.text, writeReasoningToken(part, meta.origin)));
    } else {
      flush();
      const token = writeCallSignature(part.signature, part.origin ?? meta.origin, part.id);
      if (token !== undefined) output.push(createReasoningItem(withIdPrefix('rs_', `${meta.id}_${output.length}`), undefined, token));
      output.push(createFunctionCallItem(withIdPrefix('fc_', `${meta.id}_${output.length}`), part.id, part.name, part.arguments));
    }
  }
  flush();
  return createResponseObject(meta, request, output, response.usage, response.finishReason);
}
