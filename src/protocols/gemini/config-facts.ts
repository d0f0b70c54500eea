import type { ProtocolConfigFacts } from '../types.ts';

/** The Gemini generate-content protocol's config facts: generation and token counting forwarded as they are. */
export const geminiConfigFacts: ProtocolConfigFacts = {
  passthrough: {
    'generate-content': { method: 'POST', path: '/models/{model}:generateContent', model: 'path' },
    'stream-generate-content': { method: 'POST', path: '/models/{model}:streamGenerateContent', model: 'path' },
    'count-tokens': { method: 'POST', path: '/models/{model}:countTokens', model: 'path', free: true },
  },
  requestFacts: { ranges: { temperature: { min: 0, max: 2 }, topP: { min: 0, max: 1 } } },
};
