import { decodeAnthropicError } from '../translate/anthropic/response.ts';
import type { ProtocolAdapter } from './types.ts';
import type { Usage } from '../runtime/types.ts';

/**
 * Reads Anthropic usage from a message, `message_start` (`message.usage`) or `message_delta` (`usage`).
 * No total (the protocol has none, and a `message_delta` may carry `output_tokens` alone): `addUsage`
 * adds input and output once both are known.
 */
function readUsage(json: any): Usage | undefined {
  const usage = json?.usage ?? json?.message?.usage;
  if (!usage || typeof usage !== 'object') return undefined;
  const cached = usage.cache_read_input_tokens;
  const input =
    usage.input_tokens === undefined
      ? undefined
      : usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (cached ?? 0);
  const output = usage.output_tokens;
  return {
    inputTokens: input,
    outputTokens: output,
    cachedInputTokens: cached,
    cacheCreationInputTokens: usage.cache_creation_input_tokens,
  };
}

/** The Anthropic messages protocol. */
export const anthropicAdapter: ProtocolAdapter = {
  protocol: 'anthropic',
  style: 'anthropic',
  passthrough: {
    messages: { method: 'POST', path: '/v1/messages', model: 'body' },
    'count-tokens': { method: 'POST', path: '/v1/messages/count_tokens', model: 'body', free: true },
  },
  requestHeaders: ['content-type', 'accept', 'anthropic-beta'],
  readUsage,
  usageFields: ['usage'],
  finishReasonFields: ['stop_reason'],
  readError: decodeAnthropicError,
};
