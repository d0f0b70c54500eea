/**
 * Translators for a client style's stateful operations onto a vendor of the style's own protocol that
 * keeps no state (YAML `responses: { state: gateway }`): the operation is served through the protocol's own
 * chat translation, the gateway keeping the state, exactly as on vendors of other protocols. Derived from
 * the registry (client operations marked `gatewayState`).
 */
import type { Operation, Protocol, Style } from '../../config/types.ts';
import { PROTOCOLS } from '../../protocols/index.ts';
import type { ProtocolAdapter } from '../../protocols/types.ts';
import type { OpHandler } from '../types.ts';
import { createTranslationHandler, type TranslationState } from './handler.ts';

const HANDLERS = new Map<string, OpHandler>();

/**
 * The handler serving `op` of a `style` client on a same-protocol vendor that keeps no state, `state`
 * keeping it (the caller's state keeper), or undefined; built on first use.
 */
export function getStatefulTranslator(op: Operation, style: Style, protocol: Protocol, state: TranslationState): OpHandler | undefined {
  const key = `${style} ${op} ${protocol}`;
  const known = HANDLERS.get(key);
  if (known) return known;
  const adapter: ProtocolAdapter = PROTOCOLS[protocol];
  const entry = adapter.style === style ? adapter.clients?.[op] : undefined;
  if (!entry?.gatewayState || !adapter.chat) return undefined;
  const handler = createTranslationHandler(style, entry.adapter, adapter.chat, entry.stream, state);
  HANDLERS.set(key, handler);
  return handler;
}
