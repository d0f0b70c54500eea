/**
 * Cross-protocol chat translation: which handler serves a chat-like operation of a client style on a
 * vendor protocol. Every pair is built once at load; a request does one table lookup. Behaviour is
 * chosen by protocol alone (no vendor or model names).
 */
import type { Operation, Protocol, Style } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import type { OpHandler } from '../runtime/types.ts';
import type { ClientAdapter, VendorAdapter } from './adapter.ts';
import { responsesState } from '../responses-state/responses-state.ts';
import { anthropicAdapter } from './anthropic/index.ts';
import { bedrockChat } from '../protocols/bedrock/index.ts';
import { geminiAdapter } from './gemini/index.ts';
import { createTranslationHandler, type TranslationState } from './handler.ts';
import { completionsAdapter } from './openai-completions/index.ts';
import { openAIChatAdapter } from './openai-chat/index.ts';
import { responsesAdapter } from './openai-responses/index.ts';
import { anthropicCountClient, anthropicCounter } from './anthropic/count.ts';
import { createCountTokensHandler, type ClientCounter, type VendorCounter } from './count-tokens.ts';
import { geminiCountClient, geminiCounter } from './gemini/count.ts';

/** Vendor protocols that chat can be translated to. */
const VENDOR_ADAPTERS: Partial<Record<Protocol, VendorAdapter>> = {
  openai: openAIChatAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  bedrock: bedrockChat,
};

/**
 * Chat-like operations per client style; `stream` when the route (not the body) decides streaming,
 * `state` when the gateway keeps the style's state for vendors that keep none.
 */
const CLIENT_ADAPTERS: Record<Style, Partial<Record<Operation, { adapter: ClientAdapter; stream?: boolean; state?: TranslationState }>>> = {
  openai: {
    chat: { adapter: openAIChatAdapter },
    responses: { adapter: responsesAdapter, state: responsesState },
    completions: { adapter: completionsAdapter },
  },
  anthropic: { messages: { adapter: anthropicAdapter } },
  gemini: {
    'generate-content': { adapter: geminiAdapter, stream: false },
    'stream-generate-content': { adapter: geminiAdapter, stream: true },
  },
};

/** `/v1/responses/compact` needs the vendor's stored responses; translated vendors keep none. */
const rejectCompact: OpHandler = async () => {
  throw new GatewayError(400, 'unsupported_parameter', "Compacting a response needs a vendor that keeps response state ('previous_response_id'); the vendor of this model does not.", { param: 'previous_response_id' });
};

const HANDLERS = new Map<string, OpHandler>();
for (const [style, ops] of Object.entries(CLIENT_ADAPTERS) as Array<[Style, (typeof CLIENT_ADAPTERS)[Style]]>) {
  for (const [op, entry] of Object.entries(ops)) {
    for (const [protocol, vendor] of Object.entries(VENDOR_ADAPTERS)) {
      if (protocol === style || !entry || !vendor) continue;
      HANDLERS.set(`${style} ${op} ${protocol}`, createTranslationHandler(style, entry.adapter, vendor, entry.stream, entry.state));
    }
  }
}
for (const protocol of Object.keys(VENDOR_ADAPTERS)) {
  if (protocol !== 'openai') HANDLERS.set(`openai responses-compact ${protocol}`, rejectCompact);
}

/** Count-token requests per client style, and the protocols that count exactly (others estimate). */
const COUNT_CLIENTS: Partial<Record<Style, ClientCounter>> = { anthropic: anthropicCountClient, gemini: geminiCountClient };
const COUNTERS: Partial<Record<Protocol, VendorCounter>> = { anthropic: anthropicCounter, gemini: geminiCounter };
const PROTOCOLS: Protocol[] = ['openai', 'anthropic', 'gemini', 'dashscope', 'bedrock'];
for (const [style, client] of Object.entries(COUNT_CLIENTS) as Array<[Style, ClientCounter]>) {
  for (const protocol of PROTOCOLS) {
    if (protocol !== style) HANDLERS.set(`${style} count-tokens ${protocol}`, createCountTokensHandler(client, COUNTERS[protocol]));
  }
}

/**
 * The handler serving `op` of a `style` client on a vendor speaking `protocol` through translation;
 * undefined when the style is the protocol's own (passthrough) or the operation is not chat-like.
 */
export function getTranslator(op: Operation, style: Style, protocol: Protocol): OpHandler | undefined {
  return HANDLERS.get(`${style} ${op} ${protocol}`);
}
