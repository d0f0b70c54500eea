import type { Operation, Protocol, Style } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import { getProtocolAdapter } from '../protocols/index.ts';
import type { PassthroughEndpoint } from '../protocols/types.ts';
import { createPassthrough } from './passthrough.ts';
import type { OpHandler } from './types.ts';

/** Wraps an operation's same-protocol passthrough (e.g. a policy that changes what the vendor is asked to keep). */
export type PassthroughWrapper = (passthrough: OpHandler) => OpHandler;

/** What one module contributes to the dispatch table, by operation. */
export interface HandlerSet {
  /** Operations served the same way whatever the vendor protocol (they consult the model's options). */
  features?: Partial<Record<Operation, OpHandler>>;
  /** Operations that name no model (listings, stored responses). */
  modelless?: Partial<Record<Operation, OpHandler>>;
  /** Wrappers of an operation's same-protocol passthrough. */
  passthroughWrappers?: Partial<Record<Operation, PassthroughWrapper>>;
}

/** The translator serving `op` called in `style` for a vendor of `protocol`, if there is one. */
export type TranslatorLookup = (op: Operation, style: Style, protocol: Protocol) => OpHandler | undefined;

/** Which handler serves an operation: decided per (operation, style, protocol), once. */
export interface DispatchTable {
  /** A feature handler, the same-protocol passthrough (wrapped), a translator, or 501. */
  getHandler(op: Operation, style: Style, protocol: Protocol): OpHandler;
  /** The handler of a model-less operation, or 501. */
  getModellessHandler(op: Operation): OpHandler;
}

/** Joins the sets' maps of one kind; an operation claimed twice is a programming error, found at start-up. */
function joinSets<V>(sets: readonly HandlerSet[], kind: keyof HandlerSet): Partial<Record<Operation, V>> {
  const joined: Partial<Record<Operation, V>> = {};
  for (const set of sets) {
    for (const [op, value] of Object.entries(set[kind] ?? {}) as [Operation, V][]) {
      if (joined[op] !== undefined) throw new Error(`two ${kind} handlers for operation "${op}"`);
      joined[op] = value;
    }
  }
  return joined;
}

function notImplemented(op: Operation, protocol?: Protocol): OpHandler {
  const where = protocol === undefined ? '' : ` for models on ${protocol} vendors`;
  return async () => {
    throw new GatewayError(501, 'not_implemented', `The operation "${op}" is not available${where}.`);
  };
}

/** Builds the dispatch table from the handler sets of the gateway's modules and the translators' lookup. */
export function createDispatchTable(sets: readonly HandlerSet[], findTranslator: TranslatorLookup): DispatchTable {
  const features = joinSets<OpHandler>(sets, 'features');
  const modelless = joinSets<OpHandler>(sets, 'modelless');
  const wrappers = joinSets<PassthroughWrapper>(sets, 'passthroughWrappers');
  const wrapPassthrough = (op: Operation, endpoint: PassthroughEndpoint): OpHandler => {
    const passthrough = createPassthrough(endpoint);
    const wrap = wrappers[op];
    return wrap ? wrap(passthrough) : passthrough;
  };
  // Decided handlers: op -> style -> protocol (nested maps: no key string built per request).
  const decided = new Map<Operation, Map<Style, Map<Protocol, OpHandler>>>();
  return {
    getHandler(op, style, protocol) {
      let byStyle = decided.get(op);
      if (!byStyle) decided.set(op, (byStyle = new Map()));
      let byProtocol = byStyle.get(style);
      if (!byProtocol) byStyle.set(style, (byProtocol = new Map()));
      let handler = byProtocol.get(protocol);
      if (handler) return handler;
      const adapter = getProtocolAdapter(protocol);
      const endpoint = adapter.passthrough[op];
      handler =
        features[op] ??
        (adapter.style === style && endpoint ? wrapPassthrough(op, endpoint) : undefined) ??
        findTranslator(op, style, protocol) ??
        notImplemented(op, protocol);
      byProtocol.set(protocol, handler);
      return handler;
    },
    getModellessHandler(op) {
      return modelless[op] ?? notImplemented(op);
    },
  };
}
