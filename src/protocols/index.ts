import type { Protocol } from '../config/types.ts';
import { anthropicAdapter } from './anthropic/index.ts';
import { dashscopeAdapter } from './dashscope/index.ts';
import { geminiAdapter } from './gemini/index.ts';
import { openaiAdapter } from './openai/index.ts';
import { bedrockProtocol } from './bedrock/index.ts';
import type { ProtocolAdapter } from './types.ts';

/**
 * The registry of vendor protocols: one adapter per folder `src/protocols/<name>/` (wire facts, translation,
 * schema fragment, simulator), by protocol name. Adding a protocol is its folder plus one line here (and one
 * in `styles.ts` for a client style). The `Protocol` type is generated from these keys (`npm run build`
 * writes generated/protocols.ts); the translator table, the simulator set and the config schema's enums
 * are derived from this object.
 */
export const PROTOCOLS = {
  openai: openaiAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  dashscope: dashscopeAdapter,
  bedrock: bedrockProtocol,
} satisfies Record<Protocol, ProtocolAdapter>;

/** The adapter of a vendor protocol. */
export function getProtocolAdapter(protocol: Protocol): ProtocolAdapter {
  const adapter: ProtocolAdapter | undefined = PROTOCOLS[protocol];
  if (!adapter) throw new Error(`no adapter for protocol ${protocol}`);
  return adapter;
}
