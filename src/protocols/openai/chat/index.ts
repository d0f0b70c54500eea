/** The chat-completions protocol adapter (both sides). */
import type { ChatAdapter } from '../../../translate/adapter.ts';
import { decodeOpenAIChatRequest } from './decode-request.ts';
import { encodeOpenAIChatRequest } from './encode-request.ts';
import { decodeOpenAIChatResponse, decodeOpenAIError, encodeOpenAIChatResponse } from './response.ts';
import { createOpenAIChatStreamDecoder, createOpenAIChatStreamEncoder } from './stream.ts';

/** Chat-completions requests, responses, streams and errors <-> canonical. */
export const openAIChatAdapter: ChatAdapter = {
  fieldNames: {
    reasoning: 'reasoning_effort',
    messages: 'messages',
    topK: 'top_k',
    topP: 'top_p',
    toolChoice: 'tool_choice',
    seed: 'seed',
    presencePenalty: 'presence_penalty',
    frequencyPenalty: 'frequency_penalty',
    responseFormat: 'response_format',
    parallelToolCalls: 'parallel_tool_calls',
    stopSequences: 'stop',
    user: 'user',
  },
  decodeRequest: decodeOpenAIChatRequest,
  encodeRequest: encodeOpenAIChatRequest,
  decodeResponse: decodeOpenAIChatResponse,
  encodeResponse: encodeOpenAIChatResponse,
  createStreamDecoder: createOpenAIChatStreamDecoder,
  createStreamEncoder: createOpenAIChatStreamEncoder,
  decodeError: decodeOpenAIError,
};
