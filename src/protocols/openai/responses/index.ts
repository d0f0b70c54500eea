/** The responses-style client adapter (requests served by vendors of the other chat protocols). */
import type { ClientAdapter } from '../../../translate/adapter.ts';
import { decodeResponsesRequest } from './decode-request.ts';
import { encodeResponsesResponse } from './response.ts';
import { createResponsesStreamEncoder } from './stream.ts';

/** Responses-style requests, responses and streams <-> canonical (client side only). */
export const responsesAdapter: ClientAdapter = {
  fieldNames: {
    reasoning: 'reasoning.effort',
    messages: 'input',
    responseFormat: 'text.format',
    parallelToolCalls: 'parallel_tool_calls',
    user: 'user',
    topP: 'top_p',
    toolChoice: 'tool_choice',
  },
  decodeRequest: decodeResponsesRequest,
  encodeResponse: encodeResponsesResponse,
  createStreamEncoder: createResponsesStreamEncoder,
};
