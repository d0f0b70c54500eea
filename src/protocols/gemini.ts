import { decodeGeminiError } from '../translate/gemini/response.ts';
import type { ProtocolAdapter } from './types.ts';
import type { Usage } from '../runtime/types.ts';

/** Reads Gemini `usageMetadata` (every stream chunk carries it; the last one holds the final counts). */
function readUsage(json: any): Usage | undefined {
  const usage = json?.usageMetadata;
  if (!usage || typeof usage !== 'object') return undefined;
  return {
    inputTokens: usage.promptTokenCount,
    outputTokens:
      usage.candidatesTokenCount === undefined ? undefined : usage.candidatesTokenCount + (usage.thoughtsTokenCount ?? 0),
    totalTokens: usage.totalTokenCount,
    cachedInputTokens: usage.cachedContentTokenCount,
    reasoningTokens: usage.thoughtsTokenCount,
  };
}

/** The Gemini generate-content protocol (Google AI `v1beta`). */
export const geminiAdapter: ProtocolAdapter = {
  protocol: 'gemini',
  style: 'gemini',
  passthrough: {
    'generate-content': { method: 'POST', path: '/models/{model}:generateContent', model: 'path' },
    'stream-generate-content': { method: 'POST', path: '/models/{model}:streamGenerateContent', model: 'path' },
    'count-tokens': { method: 'POST', path: '/models/{model}:countTokens', model: 'path', free: true },
  },
  requestHeaders: ['content-type', 'accept'],
  readUsage,
  usageFields: ['usageMetadata'],
  finishReasonFields: ['finishReason'],
  readError: decodeGeminiError,
};
