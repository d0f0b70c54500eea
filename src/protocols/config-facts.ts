import type { Protocol } from '../config/types.ts';
import { anthropicConfigFacts } from './anthropic/config-facts.ts';
import { bedrockConfigFacts } from './bedrock/config-facts.ts';
import { dashscopeConfigFacts } from './dashscope/config-facts.ts';
import { geminiConfigFacts } from './gemini/config-facts.ts';
import { openaiConfigFacts } from './openai/config-facts.ts';
import type { ProtocolConfigFacts } from './types.ts';

/**
 * The config facts of every protocol (passthrough operations, request facts, schema fragment), by protocol
 * name in the order of `PROTOCOLS` (index.ts), whose adapters spread them in: what `npm run build` composes
 * the config schema's protocol enums and fragments and generated/protocols.ts from. Kept apart from the
 * adapters so that the build loads no translator; test/protocols/registry.test.ts holds the two together.
 */
export const PROTOCOL_CONFIG_FACTS = {
  openai: openaiConfigFacts,
  anthropic: anthropicConfigFacts,
  gemini: geminiConfigFacts,
  dashscope: dashscopeConfigFacts,
  bedrock: bedrockConfigFacts,
} satisfies Record<Protocol, ProtocolConfigFacts>;
