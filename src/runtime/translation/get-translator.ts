/**
 * Cross-protocol chat translation: which handler serves a chat-like operation of a client style on a
 * vendor protocol, derived from the protocol registry (each adapter's `clients`, `chat`, `countClient`,
 * `counter` and `refusedWhenTranslated`). Every pair is built once at load; a request does one table lookup.
 */
import type { Operation, Protocol, Style } from '../../config/types.ts';
import { GatewayError } from '../../errors.ts';
import { PROTOCOLS } from '../../protocols/index.ts';
import type { ProtocolAdapter, RefusedOperation } from '../../protocols/types.ts';
import type { TranslatorLookup } from '../dispatch-table.ts';
import type { OpHandler } from '../types.ts';
import { createCountTokensHandler } from './count-tokens.ts';
import { createTranslationHandler, type TranslationState } from './handler.ts';

const ADAPTERS: readonly ProtocolAdapter[] = Object.values(PROTOCOLS);

function createRefusal(refusal: RefusedOperation): OpHandler {
  return async () => {
    throw new GatewayError(400, 'unsupported_parameter', refusal.message, { param: refusal.param });
  };
}

/** The translators of one client style onto every other protocol, keyed `style op protocol`. */
function addStyleHandlers(handlers: Map<string, OpHandler>, client: ProtocolAdapter, style: Style, state: TranslationState): void {
  for (const vendor of ADAPTERS) {
    if (vendor.protocol === style) continue;
    const key = (op: string) => `${style} ${op} ${vendor.protocol}`;
    if (vendor.chat) {
      for (const [op, entry] of Object.entries(client.clients ?? {})) {
        if (entry) handlers.set(key(op), createTranslationHandler(style, entry.adapter, vendor.chat, entry.stream, entry.gatewayState ? state : undefined));
      }
      for (const [op, refusal] of Object.entries(client.refusedWhenTranslated ?? {})) {
        if (refusal) handlers.set(key(op), createRefusal(refusal));
      }
    }
    if (client.countClient) handlers.set(key('count-tokens'), createCountTokensHandler(client.countClient, vendor.counter));
  }
}

/**
 * The lookup of the handler serving `op` of a `style` client on a vendor speaking `protocol` through
 * translation (undefined when the style is the protocol's own, or the operation is not chat-like), every
 * pair built now; `state` keeps the state of operations marked `gatewayState` (given by the composition root).
 */
export function createTranslatorLookup(state: TranslationState): TranslatorLookup {
  const handlers = new Map<string, OpHandler>();
  for (const client of ADAPTERS) if (client.style) addStyleHandlers(handlers, client, client.style, state);
  return (op: Operation, style: Style, protocol: Protocol) => handlers.get(`${style} ${op} ${protocol}`);
}
