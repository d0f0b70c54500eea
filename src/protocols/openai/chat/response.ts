/** Chat-completions responses and errors <-> canonical. Shared usage and finish-reason mappings too. */
import type { AnswerPart, CanonicalResponse, CanonicalUsage, FinishReason, VendorError } from '../../../translate/canonical.ts';
import { getTotalTokens } from '../../../translate/canonical.ts';
import type { ResponseMeta } from '../../../translate/adapter.ts';
import { isRecord, readNumber, withIdPrefix } from '../../../translate/helpers.ts';
import { GatewayError } from '../../../errors.ts';
import { writeClientCallExtra, writeMessageReasoning } from './reasoning.ts';
import { readOwn } from '../../../lib/read-own.ts';
import { toText } from '../../../lib/to-text.ts';

const FINISH_IN: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
};

/** A chat-completions `finish_reason` in canonical terms. */
export function readOpenAIFinish(reason: unknown): FinishReason {
  return (typeof reason === 'string' && readOwn(FINISH_IN, reason)) || 'other';
}

/** A canonical finish reason as a chat-completions `finish_reason` (`other` becomes `stop`). */
export function writeOpenAIFinish(reason: FinishReason): string {
  return reason === 'other' ? 'stop' : reason;
}

/** Reads a chat-completions `usage` object. */
export function readOpenAIUsage(usage: unknown): CanonicalUsage {
  if (!isRecord(usage)) return {};
  return {
    inputTokens: readNumber(usage.prompt_tokens),
    outputTokens: readNumber(usage.completion_tokens),
    totalTokens: readNumber(usage.total_tokens),
    cachedInputTokens: readNumber(usage.prompt_tokens_details?.cached_tokens),
    reasoningTokens: readNumber(usage.completion_tokens_details?.reasoning_tokens),
  };
}

/** Writes canonical usage as a chat-completions `usage` object. */
export function writeOpenAIUsage(usage: CanonicalUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.inputTokens ?? 0,
    completion_tokens: usage.outputTokens ?? 0,
    total_tokens: getTotalTokens(usage),
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  };
}

/** A vendor's reasoning text on a message or delta: `reasoning_content`, or `reasoning` (some compatible servers). */
export function readReasoningText(message: Record<string, any>): string {
  if (typeof message.reasoning_content === 'string') return message.reasoning_content;
  return typeof message.reasoning === 'string' ? message.reasoning : '';
}

/**
 * A vendor's signature on a tool call, or on a message or delta (its text's): `extra_content.google.thought_signature`,
 * Google's compatible mode.
 */
export function readVendorCallSignature(call: Record<string, any>): string | undefined {
  const value = isRecord(call.extra_content) && isRecord(call.extra_content.google) ? call.extra_content.google.thought_signature : undefined;
  return typeof value === 'string' && value ? value : undefined;
}

/** Reads a chat-completions response (first choice) into the canonical shape. */
export function decodeOpenAIChatResponse(body: unknown): CanonicalResponse {
  const choice = isRecord(body) && Array.isArray(body.choices) ? body.choices[0] : undefined;
  if (!isRecord(body) || !isRecord(choice) || !isRecord(choice.message)) {
    throw new GatewayError(502, 'upstream_invalid_response', 'The vendor answered with an unreadable chat completion.');
  }
  const message = choice.message;
  const content: AnswerPart[] = [];
  const reasoning = readReasoningText(message);
  if (reasoning) content.push({ type: 'reasoning', text: reasoning });
  const text = typeof message.content === 'string' ? message.content : typeof message.refusal === 'string' ? message.refusal : '';
  const signature = readVendorCallSignature(message);
  if (text || signature) content.push({ type: 'text', text, ...(signature ? { signature } : {}) });
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      if (!isRecord(call) || !isRecord(call.function)) continue;
      const signature = readVendorCallSignature(call);
      content.push({ type: 'tool_call', id: toText(call.id), name: toText(call.function.name), arguments: toText(call.function.arguments), ...(signature ? { signature } : {}) });
    }
  }
  return {
    id: typeof body.id === 'string' ? body.id : undefined,
    model: typeof body.model === 'string' ? body.model : undefined,
    content,
    finishReason: readOpenAIFinish(choice.finish_reason),
    usage: readOpenAIUsage(body.usage),
  };
}

/** Writes a canonical answer as a chat-completions response. */
export function encodeOpenAIChatResponse(response: CanonicalResponse, meta: ResponseMeta): unknown {
  const text = response.content.filter((part) => part.type === 'text').map((part) => part.text).join('');
  const calls = response.content.filter((part) => part.type === 'tool_call');
  const message: Record<string, unknown> = { role: 'assistant', content: text || (calls.length > 0 ? null : ''), refusal: null };
  writeMessageReasoning(message, response.content, meta.origin);
  if (calls.length > 0) {
    message.tool_calls = calls.map((call) => ({
      id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments }, ...writeClientCallExtra(call, meta.origin),
    }));
  }
  return {
    id: withIdPrefix('chatcmpl-', meta.id),
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: writeOpenAIFinish(response.finishReason) }],
    usage: writeOpenAIUsage(response.usage),
  };
}

/** Reads a chat-completions error body (`{error: {message, type, param, code}}`). */
export function decodeOpenAIError(status: number, body: unknown): VendorError {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  const message = typeof error?.message === 'string' ? error.message : typeof body === 'string' && body ? body : `The vendor answered HTTP ${status}.`;
  const type = toText(error?.code ?? error?.type ?? 'upstream_error');
  return { status, type, message, authFailure: status === 401 || status === 403, ...(typeof error?.param === 'string' ? { param: error.param } : {}) };
}
