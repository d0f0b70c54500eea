import type { ProtocolConfigFacts } from '../types.ts';
import { bedrockConfigSchema } from './config-schema.ts';

/** Bedrock's config facts: no passthrough, Converse's sampling ranges, and its fragment (region, SigV4 auth, reasoning shape). */
export const bedrockConfigFacts: ProtocolConfigFacts = {
  passthrough: {},
  requestFacts: { ranges: { temperature: { min: 0, max: 1 }, topP: { min: 0, max: 1 } } },
  configSchema: bedrockConfigSchema,
};
