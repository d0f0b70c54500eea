/** The messages protocol adapter (both sides). */
import type { ChatAdapter } from '../../../translate/adapter.ts';
import { decodeAnthropicRequest } from './decode-request.ts';
import { encodeAnthropicRequest } from './encode-request.ts';
import { decodeAnthropicError, decodeAnthropicResponse, encodeAnthropicResponse } from './response.ts';
import { createAnthropicStreamDecoder } from './stream-decode.ts';
import { createAnthropicStreamEncoder } from './stream-encode.ts';

/** Messages requests, responses, streams and errors <-> canonical. */
export const anthropicChat: ChatAdapter = {
  fieldNames: {
    reasoning: 'thinking.budget_tokens',
    messages: 'messages',
    responseFormat: 'output_config.format',
    parallelToolCalls: 'tool_choice.disable_parallel_tool_use',
    stopSequences: 'stop_sequences',
    topK: 'top_k',
    topP: 'top_p',
    toolChoice: 'tool_choice',
    user: 'metadata.user_id',
  },
  decodeRequest: decodeAnthropicRequest,
  encodeRequest: encodeAnthropicRequest,
  decodeResponse: decodeAnthropicResponse,
  encodeResponse: encodeAnthropicResponse,
  createStreamDecoder: createAnthropicStreamDecoder,
  createStreamEncoder: createAnthropicStreamEncoder,
  decodeError: decodeAnthropicError,
};
