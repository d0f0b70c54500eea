/** Messages-protocol responses and errors <-> canonical. Shared usage and stop-reason mappings too. */
import type { AnswerPart, CanonicalResponse, CanonicalUsage, FinishReason, VendorError } from '../../../translate/canonical.ts';
import type { ResponseMeta } from '../../../translate/adapter.ts';
import { isRecord, parseVendorArguments, readNumber, withIdPrefix } from '../../../translate/helpers.ts';
import { GatewayError } from '../../../errors.ts';
import { writeCallSignature, writeReasoningToken, writeTextSignature } from '../../../translate/reasoning-parts.ts';
import { readOwn } from '../../../lib/read-own.ts';
import { toText } from '../../../lib/to-text.ts';

const STOP_IN: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
  pause_turn: 'other',
};

const STOP_OUT: Record<FinishReason, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
  other: 'end_turn',
};

/** A `stop_reason` in canonical terms. */
export function readAnthropicStop(reason: unknown): FinishReason {
  return (typeof reason === 'string' && readOwn(STOP_IN, reason)) || 'other';
}

/** A canonical finish reason as `stop_reason` (`stop_sequence` when a stop sequence is known). */
export function writeAnthropicStop(reason: FinishReason, stopSequence?: string): string {
  return reason === 'stop' && stopSequence !== undefined ? 'stop_sequence' : STOP_OUT[reason];
}

/**
 * Reads a messages `usage` object: input counts are summed (the protocol reports cache reads apart). No
 * total: the protocol has none, and a stream's `message_delta` may carry `output_tokens` alone (the shape
 * of Anthropic's documented example), so a total made here from `message_start` (output 1) would stick.
 * Readers add input and output once the stream's counts are merged (`getTotalTokens` of canonical.ts).
 */
export function readAnthropicUsage(usage: unknown): CanonicalUsage {
  if (!isRecord(usage)) return {};
  const input = readNumber(usage.input_tokens);
  const cacheRead = readNumber(usage.cache_read_input_tokens);
  const cacheWrite = readNumber(usage.cache_creation_input_tokens);
  return {
    inputTokens: input === undefined ? undefined : input + (cacheRead ?? 0) + (cacheWrite ?? 0),
    outputTokens: readNumber(usage.output_tokens),
    cachedInputTokens: cacheRead,
    cacheCreationInputTokens: cacheWrite,
    reasoningTokens: readNumber(usage.output_tokens_details?.thinking_tokens),
  };
}

/** Writes canonical usage as a messages `usage` object (uncached input apart from cache reads and writes). */
export function writeAnthropicUsage(usage: CanonicalUsage): Record<string, unknown> {
  const cached = usage.cachedInputTokens ?? 0;
  const created = usage.cacheCreationInputTokens ?? 0;
  const out: Record<string, unknown> = {
    input_tokens: Math.max(0, (usage.inputTokens ?? 0) - cached - created),
    output_tokens: usage.outputTokens ?? 0,
    cache_creation_input_tokens: created,
    cache_read_input_tokens: cached,
  };
  if (usage.reasoningTokens) out.output_tokens_details = { thinking_tokens: usage.reasoningTokens };
  return out;
}

/** Reads a messages response into the canonical shape (thinking and redacted thinking as reasoning parts). */
export function decodeAnthropicResponse(body: unknown): CanonicalResponse {
  if (!isRecord(body) || !Array.isArray(body.content)) {
    throw new GatewayError(502, 'upstream_invalid_response', 'The vendor answered with an unreadable message.');
  }
  const content: AnswerPart[] = [];
  for (const block of body.content) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') content.push({ type: 'text', text: block.text });
    if (block.type === 'thinking') {
      const signature = typeof block.signature === 'string' && block.signature ? { signature: block.signature } : {};
      content.push({ type: 'reasoning', text: toText(block.thinking), ...signature });
    }
    if (block.type === 'redacted_thinking' && typeof block.data === 'string') content.push({ type: 'reasoning', text: '', redacted: block.data });
    if (block.type === 'tool_use') {
      content.push({ type: 'tool_call', id: toText(block.id), name: toText(block.name), arguments: JSON.stringify(block.input ?? {}) });
    }
  }
  return {
    id: typeof body.id === 'string' ? body.id : undefined,
    model: typeof body.model === 'string' ? body.model : undefined,
    content,
    finishReason: readAnthropicStop(body.stop_reason),
    stopSequence: typeof body.stop_sequence === 'string' ? body.stop_sequence : undefined,
    usage: readAnthropicUsage(body.usage),
  };
}

/**
 * The content blocks of one answer part. Reasoning becomes a `thinking` block (signature: the gateway's
 * token, '' when the vendor gave none) or a `redacted_thinking` block; a tool call's own signature rides
 * in a `thinking` block before its `tool_use`, a text's in one after its text (reasoning-signature.ts).
 */
export function writeAnthropicBlocks(part: AnswerPart, origin: string | undefined): Array<Record<string, unknown>> {
  if (part.type === 'text') {
    const token = writeTextSignature(part.signature, part.origin ?? origin);
    if (token === undefined) return [{ type: 'text', text: part.text }];
    return [...(part.text ? [{ type: 'text', text: part.text }] : []), { type: 'thinking', thinking: '', signature: token }];
  }
  if (part.type === 'reasoning') {
    const token = writeReasoningToken(part, origin) ?? '';
    return part.redacted !== undefined ? [{ type: 'redacted_thinking', data: token }] : [{ type: 'thinking', thinking: part.text, signature: token }];
  }
  const use = { type: 'tool_use', id: part.id, name: part.name, input: parseVendorArguments(part.arguments) };
  const token = writeCallSignature(part.signature, part.origin ?? origin, part.id);
  return token === undefined ? [use] : [{ type: 'thinking', thinking: '', signature: token }, use];
}

/** Writes a canonical answer as a messages response. */
export function encodeAnthropicResponse(response: CanonicalResponse, meta: ResponseMeta): unknown {
  const content = response.content.flatMap((part) => writeAnthropicBlocks(part, meta.origin));
  return {
    id: withIdPrefix('msg_', meta.id),
    type: 'message',
    role: 'assistant',
    model: meta.model,
    content,
    stop_reason: writeAnthropicStop(response.finishReason, response.stopSequence),
    stop_sequence: response.stopSequence ?? null,
    usage: writeAnthropicUsage(response.usage),
  };
}

const ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/** Reads a messages error body (`{type: "error", error: {type, message}}`); status 0 = from the type. */
export function decodeAnthropicError(status: number, body: unknown): VendorError {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  const type = typeof error?.type === 'string' ? error.type : 'api_error';
  const message = typeof error?.message === 'string' ? error.message : typeof body === 'string' && body ? body : `The vendor answered HTTP ${status}.`;
  const code = status || readOwn(ERROR_STATUS, type) || 500;
  return { status: code, type, message, authFailure: code === 401 || code === 403 };
}
