/** The generate-content protocol adapter (both sides). */
import type { ChatAdapter } from '../../../translate/adapter.ts';
import { decodeGeminiRequest } from './decode-request.ts';
import { encodeGeminiRequest } from './encode-request.ts';
import { decodeGeminiError, decodeGeminiResponse, encodeGeminiResponse } from './response.ts';
import { createGeminiStreamDecoder, createGeminiStreamEncoder } from './stream.ts';

/** Generate-content requests, responses, streams and errors <-> canonical. */
export const geminiChat: ChatAdapter = {
  fieldNames: {
    reasoning: 'generationConfig.thinkingConfig.thinkingBudget',
    messages: 'contents',
    topK: 'generationConfig.topK',
    topP: 'generationConfig.topP',
    toolChoice: 'toolConfig.functionCallingConfig',
    seed: 'generationConfig.seed',
    presencePenalty: 'generationConfig.presencePenalty',
    frequencyPenalty: 'generationConfig.frequencyPenalty',
    responseFormat: 'generationConfig.responseSchema',
    stopSequences: 'generationConfig.stopSequences',
  },
  decodeRequest: decodeGeminiRequest,
  encodeRequest: encodeGeminiRequest,
  decodeResponse: decodeGeminiResponse,
  encodeResponse: encodeGeminiResponse,
  createStreamDecoder: createGeminiStreamDecoder,
  createStreamEncoder: createGeminiStreamEncoder,
  decodeError: decodeGeminiError,
};
