import { decodeGeminiError, readGeminiUsage } from './translate/response.ts';
import type { ProtocolAdapter, Usage } from '../types.ts';
import { SIMULATOR_KEY } from './simulator/key.ts';
import { geminiCountClient, geminiCounter } from './translate/count.ts';
import { geminiChat } from './translate/index.ts';

/**
 * Reads Gemini `usageMetadata` (every stream chunk carries it; the last one holds the final counts) with the
 * translation's reader, so both paths count alike (tool-use prompt tokens in the input, thoughts in the output).
 */
function readUsage(json: any): Usage | undefined {
  const usage = json?.usageMetadata;
  return usage && typeof usage === 'object' ? readGeminiUsage(usage) : undefined;
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
  requestFacts: { ranges: { temperature: { min: 0, max: 2 }, topP: { min: 0, max: 1 } } },
  chat: geminiChat,
  clients: {
    'generate-content': { adapter: geminiChat, stream: false },
    'stream-generate-content': { adapter: geminiChat, stream: true },
  },
  countClient: geminiCountClient,
  counter: geminiCounter,
  simulator: { key: SIMULATOR_KEY, load: async () => (await import('./simulator/index.ts')).startGeminiSimulator },
};
