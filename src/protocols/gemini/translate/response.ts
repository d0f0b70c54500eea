/** Generate-content responses and errors <-> canonical. Shared usage and finish-reason mappings too. */
import type { AnswerPart, CanonicalResponse, CanonicalUsage, FinishReason, VendorError } from '../../../translate/canonical.ts';
import { getTotalTokens } from '../../../translate/canonical.ts';
import type { ResponseMeta } from '../../../translate/adapter.ts';
import { createIdSuffix, isRecord, parseVendorArguments, readNumber } from '../../../translate/helpers.ts';
import { GatewayError } from '../../../errors.ts';
import { writeCallSignature, writeReasoningToken } from '../../../translate/reasoning-parts.ts';
import { toText } from '../../../lib/to-text.ts';

const FILTERED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']);

const FINISH_OUT: Record<FinishReason, string> = {
  stop: 'STOP',
  length: 'MAX_TOKENS',
  tool_calls: 'STOP',
  content_filter: 'SAFETY',
  other: 'OTHER',
};

/** A `finishReason` in canonical terms; `STOP` with function calls is `tool_calls`. */
export function readGeminiFinish(reason: unknown, hasToolCalls: boolean): FinishReason {
  if (reason === 'STOP') return hasToolCalls ? 'tool_calls' : 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  return typeof reason === 'string' && FILTERED.has(reason) ? 'content_filter' : 'other';
}

/** A canonical finish reason as `finishReason`. */
export function writeGeminiFinish(reason: FinishReason): string {
  return FINISH_OUT[reason];
}

/** Reads `usageMetadata`: output counts include thoughts (reported apart by the protocol). */
export function readGeminiUsage(usage: unknown): CanonicalUsage {
  if (!isRecord(usage)) return {};
  const candidates = readNumber(usage.candidatesTokenCount);
  const thoughts = readNumber(usage.thoughtsTokenCount);
  const prompt = readNumber(usage.promptTokenCount);
  const toolPrompt = readNumber(usage.toolUsePromptTokenCount);
  return {
    inputTokens: prompt === undefined ? undefined : prompt + (toolPrompt ?? 0),
    outputTokens: candidates === undefined && thoughts === undefined ? undefined : (candidates ?? 0) + (thoughts ?? 0),
    totalTokens: readNumber(usage.totalTokenCount),
    cachedInputTokens: readNumber(usage.cachedContentTokenCount),
    reasoningTokens: thoughts,
  };
}

/** Writes canonical usage as `usageMetadata`. */
export function writeGeminiUsage(usage: CanonicalUsage): Record<string, unknown> {
  const reasoning = usage.reasoningTokens ?? 0;
  const out: Record<string, unknown> = {
    promptTokenCount: usage.inputTokens ?? 0,
    candidatesTokenCount: Math.max(0, (usage.outputTokens ?? 0) - reasoning),
    totalTokenCount: getTotalTokens(usage),
  };
  if (usage.cachedInputTokens) out.cachedContentTokenCount = usage.cachedInputTokens;
  if (reasoning) out.thoughtsTokenCount = reasoning;
  return out;
}

/**
 * Reads the parts of a candidate: text, thoughts (`thought: true`) as reasoning, and function calls (ids
 * made when absent) with their `thoughtSignature`. A signature on a thought is the reasoning's; one on
 * a plain text part (optional to send back, by the protocol's documentation) is the text's: an empty
 * text part carrying one signs the text before it.
 */
export function readGeminiParts(parts: unknown): AnswerPart[] {
  const out: AnswerPart[] = [];
  if (!Array.isArray(parts)) return out;
  for (const part of parts) {
    if (!isRecord(part)) continue;
    const signature = typeof part.thoughtSignature === 'string' && part.thoughtSignature ? part.thoughtSignature : undefined;
    if (part.thought === true) {
      out.push({ type: 'reasoning', text: typeof part.text === 'string' ? part.text : '', ...(signature ? { signature } : {}) });
      continue;
    }
    if (typeof part.text === 'string' && (part.text || signature)) readTextPart(out, part.text, signature);
    if (isRecord(part.functionCall)) {
      const call = part.functionCall;
      out.push({
        type: 'tool_call',
        id: typeof call.id === 'string' && call.id ? call.id : `call_${createIdSuffix()}`,
        name: toText(call.name),
        arguments: JSON.stringify(call.args ?? {}),
        ...(signature ? { signature } : {}),
      });
    }
  }
  return out;
}

function readTextPart(out: AnswerPart[], text: string, signature: string | undefined): void {
  const last = out[out.length - 1];
  if (!text && last?.type === 'text' && last.signature === undefined) out[out.length - 1] = { ...last, signature };
  else out.push({ type: 'text', text, ...(signature ? { signature } : {}) });
}

/** Reads a generate-content response (first candidate) into the canonical shape. */
export function decodeGeminiResponse(body: unknown): CanonicalResponse {
  if (!isRecord(body) || (!Array.isArray(body.candidates) && !isRecord(body.promptFeedback))) {
    throw new GatewayError(502, 'upstream_invalid_response', 'The vendor answered with an unreadable generate-content response.');
  }
  const candidate = Array.isArray(body.candidates) && isRecord(body.candidates[0]) ? body.candidates[0] : undefined;
  const content = readGeminiParts(candidate?.content?.parts);
  const hasToolCalls = content.some((part) => part.type === 'tool_call');
  const blocked = !candidate && body.promptFeedback?.blockReason !== undefined;
  return {
    id: typeof body.responseId === 'string' ? body.responseId : undefined,
    model: typeof body.modelVersion === 'string' ? body.modelVersion : undefined,
    content,
    finishReason: blocked ? 'content_filter' : readGeminiFinish(candidate?.finishReason, hasToolCalls),
    usage: readGeminiUsage(body.usageMetadata),
  };
}

/**
 * The `parts` of a canonical answer: function calls carry their ids (so a client can answer them) and
 * their signature token as `thoughtSignature`; reasoning is a thought part (its token, if any, as its
 * `thoughtSignature`); a signed text carries its token as `thoughtSignature` too.
 */
export function writeGeminiParts(content: AnswerPart[], origin?: string): unknown[] {
  return content.map((part) => {
    if (part.type === 'text') return writeTextPart(part.text, writeCallSignature(part.signature, part.origin ?? origin));
    if (part.type === 'reasoning') {
      const token = writeReasoningToken(part, origin);
      return { text: part.text, thought: true, ...(token === undefined ? {} : { thoughtSignature: token }) };
    }
    const token = writeCallSignature(part.signature, part.origin ?? origin);
    return { functionCall: { id: part.id, name: part.name, args: parseVendorArguments(part.arguments) }, ...(token === undefined ? {} : { thoughtSignature: token }) };
  });
}

/** A text part with its signature token, if any. */
export function writeTextPart(text: string, token: string | undefined): Record<string, unknown> {
  return token === undefined ? { text } : { text, thoughtSignature: token };
}

/** Writes a canonical answer as a generate-content response. */
export function encodeGeminiResponse(response: CanonicalResponse, meta: ResponseMeta): unknown {
  const parts = writeGeminiParts(response.content, meta.origin);
  return {
    candidates: [{
      content: { parts: parts.length > 0 ? parts : [{ text: '' }], role: 'model' },
      finishReason: writeGeminiFinish(response.finishReason),
      index: 0,
    }],
    usageMetadata: writeGeminiUsage(response.usage),
    modelVersion: meta.model,
    responseId: meta.id,
  };
}

/** Reads a generate-content error body (`{error: {code, message, status, details}}`, maybe in a list). */
export function decodeGeminiError(status: number, body: unknown): VendorError {
  const root = Array.isArray(body) ? body[0] : body;
  const error = isRecord(root) && isRecord(root.error) ? root.error : undefined;
  const code = status || readNumber(error?.code) || 500;
  const message = typeof error?.message === 'string' ? error.message : typeof body === 'string' && body ? body : `The vendor answered HTTP ${code}.`;
  const details: unknown[] = Array.isArray(error?.details) ? error.details : [];
  const badKey = details.some((detail) => isRecord(detail) && detail.reason === 'API_KEY_INVALID');
  return { status: code, type: toText(error?.status ?? 'UNKNOWN'), message, authFailure: badKey || code === 401 || code === 403 };
}
