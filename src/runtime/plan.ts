import type { Operation, Protocol, Style } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import { getProtocolAdapter } from '../protocols/index.ts';
import { createPassthrough } from './passthrough.ts';
import type { OpHandler } from './types.ts';

/** Operations served the same way whatever the vendor protocol (they consult the model's options). */
const FEATURE_HANDLERS: Partial<Record<Operation, OpHandler>> = {};

/** Registers a handler that serves an operation for every vendor protocol (images, listings, videos). */
export function defineFeatureHandler(op: Operation, handler: OpHandler): void {
  FEATURE_HANDLERS[op] = handler;
}

/** Translators between styles and protocols, registered by src/translate. */
type TranslatorLookup = (op: Operation, style: Style, protocol: Protocol) => OpHandler | undefined;
let findTranslator: TranslatorLookup = () => undefined;

/** Installs the lookup of cross-protocol translators. */
export function defineTranslators(lookup: TranslatorLookup): void {
  findTranslator = lookup;
}

/** Wrappers of an operation's same-protocol passthrough, registered by their modules. */
const PASSTHROUGH_WRAPPERS: Partial<Record<Operation, (passthrough: OpHandler) => OpHandler>> = {};

/** Wraps the passthrough of `op` (e.g. a policy that changes what the vendor is asked to keep). */
export function definePassthroughWrapper(op: Operation, wrap: (passthrough: OpHandler) => OpHandler): void {
  PASSTHROUGH_WRAPPERS[op] = wrap;
}

function createWrappedPassthrough(op: Operation, endpoint: NonNullable<ReturnType<typeof getProtocolAdapter>['passthrough'][Operation]>): OpHandler {
  const passthrough = createPassthrough(endpoint);
  const wrap = PASSTHROUGH_WRAPPERS[op];
  return wrap ? wrap(passthrough) : passthrough;
}

/** Decided handlers: op -> style -> protocol (nested maps: no key string built per request). */
const cache = new Map<Operation, Map<Style, Map<Protocol, OpHandler>>>();

function notImplemented(op: Operation, protocol: Protocol): OpHandler {
  return async () => {
    throw new GatewayError(501, 'not_implemented', `The operation "${op}" is not available for models on ${protocol} vendors.`);
  };
}

/**
 * The handler serving `op` called in `style` for a vendor speaking `protocol`: a feature handler,
 * same-protocol passthrough, a translator, or 501. Decided once per combination.
 */
export function getHandler(op: Operation, style: Style, protocol: Protocol): OpHandler {
  let byStyle = cache.get(op);
  if (!byStyle) cache.set(op, (byStyle = new Map()));
  let byProtocol = byStyle.get(style);
  if (!byProtocol) byStyle.set(style, (byProtocol = new Map()));
  let handler = byProtocol.get(protocol);
  if (handler) return handler;
  const adapter = getProtocolAdapter(protocol);
  const endpoint = adapter.passthrough[op];
  handler =
    FEATURE_HANDLERS[op] ??
    (adapter.style === style && endpoint ? createWrappedPassthrough(op, endpoint) : undefined) ??
    findTranslator(op, style, protocol) ??
    notImplemented(op, protocol);
  byProtocol.set(protocol, handler);
  return handler;
}

/** Handlers of operations that name no model (listings), registered by their modules. */
const MODELLESS_HANDLERS: Partial<Record<Operation, OpHandler>> = {};

/** Registers the handler of a model-less operation. */
export function defineModellessHandler(op: Operation, handler: OpHandler): void {
  MODELLESS_HANDLERS[op] = handler;
}

/** The handler of a model-less operation, or 501. */
export function getModellessHandler(op: Operation): OpHandler {
  return (
    MODELLESS_HANDLERS[op] ??
    (async () => {
      throw new GatewayError(501, 'not_implemented', `The operation "${op}" is not available.`);
    })
  );
}
