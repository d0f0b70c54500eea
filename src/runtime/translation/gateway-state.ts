/**
 * Translators for a client style's stateful operations onto a vendor of the style's own protocol that
 * keeps no state (YAML `responses: { state: gateway }`): the operation is served through the protocol's own
 * chat translation, the gateway keeping the state, exactly as on vendors of other protocols. Derived from
 * the registry (client operations marked `gatewayState`); built once at load.
 */
import type { Operation, Protocol, Style } from '../../config/types.ts';
import { PROTOCOLS } from '../../protocols/index.ts';
import type { ProtocolAdapter } from '../../protocols/types.ts';
import { responsesState } from '../../responses-state/responses-state.ts';
import type { OpHandler } from '../types.ts';
import { createTranslationHandler } from './handler.ts';

const HANDLERS = new Map<string, OpHandler>();
for (const adapter of Object.values(PROTOCOLS) as ProtocolAdapter[]) {
  const { style, chat } = adapter;
  if (!style || !chat) continue;
  for (const [op, entry] of Object.entries(adapter.clients ?? {})) {
    if (entry?.gatewayState) HANDLERS.set(`${style} ${op} ${adapter.protocol}`, createTranslationHandler(style, entry.adapter, chat, entry.stream, responsesState));
  }
}

/** The handler serving `op` of a `style` client on a same-protocol vendor that keeps no state, or undefined. */
export function getStatefulTranslator(op: Operation, style: Style, protocol: Protocol): OpHandler | undefined {
  return HANDLERS.get(`${style} ${op} ${protocol}`);
}
