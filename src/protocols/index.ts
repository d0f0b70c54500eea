import type { Protocol } from '../config/types.ts';
import { anthropicAdapter } from './anthropic.ts';
import { bedrockProtocol } from './bedrock/index.ts';
import { dashscopeAdapter } from './dashscope.ts';
import { geminiAdapter } from './gemini.ts';
import { openaiAdapter } from './openai.ts';
import type { ProtocolAdapter } from './types.ts';

const ADAPTERS: Partial<Record<Protocol, ProtocolAdapter>> = {
  openai: openaiAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  dashscope: dashscopeAdapter,
  bedrock: bedrockProtocol,
};

/** The adapter of a vendor protocol. Adding a protocol = one file in src/protocols/ plus one line here. */
export function getProtocolAdapter(protocol: Protocol): ProtocolAdapter {
  const adapter = ADAPTERS[protocol];
  if (!adapter) throw new Error(`no adapter for protocol ${protocol}`);
  return adapter;
}
