import { decodeAnthropicError, readAnthropicUsage } from './translate/response.ts';
import type { ProtocolAdapter, Usage } from '../types.ts';
import { SIMULATOR_KEY } from './simulator/key.ts';
import { anthropicCountClient, anthropicCounter } from './translate/count.ts';
import { anthropicChat } from './translate/index.ts';

/**
 * Reads Anthropic usage from a message, `message_start` (`message.usage`) or `message_delta` (`usage`) with
 * the translation's reader (input counts cache reads and writes). No total (the protocol has none, and a
 * `message_delta` may carry `output_tokens` alone): `addUsage` adds input and output once both are known.
 */
function readUsage(json: any): Usage | undefined {
  const usage = json?.usage ?? json?.message?.usage;
  return usage && typeof usage === 'object' ? readAnthropicUsage(usage) : undefined;
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
  // The messages protocol's temperature is 0..1.
  requestFacts: { ranges: { temperature: { min: 0, max: 1 }, topP: { min: 0, max: 1 } } },
  chat: anthropicChat,
  clients: { messages: { adapter: anthropicChat } },
  countClient: anthropicCountClient,
  counter: anthropicCounter,
  simulator: { key: SIMULATOR_KEY, load: async () => (await import('./simulator/index.ts')).startAnthropicSimulator },
};
