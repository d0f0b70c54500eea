import type { ProtocolConfigFacts } from '../types.ts';

/** The Anthropic messages protocol's config facts: messages and token counting forwarded as they are. */
export const anthropicConfigFacts: ProtocolConfigFacts = {
  passthrough: {
    messages: { method: 'POST', path: '/v1/messages', model: 'body' },
    'count-tokens': { method: 'POST', path: '/v1/messages/count_tokens', model: 'body', free: true },
  },
  // The messages protocol's temperature is 0..1.
  requestFacts: { ranges: { temperature: { min: 0, max: 1 }, topP: { min: 0, max: 1 } } },
};
