import type { ServerResponse } from 'node:http';
import type { GatewayContext } from './gateway-context.ts';

const CONTEXT = Symbol('gateway.request-context');

type WithContext = ServerResponse & { [CONTEXT]?: GatewayContext };

/** Ties a response to its request's context, so that Node's connection-level errors can answer in its style. */
export function attachContext(res: ServerResponse, ctx: GatewayContext): void {
  (res as WithContext)[CONTEXT] = ctx;
}

/** The context of the request a response belongs to, when the gateway's listener made one. */
export function findContext(res: ServerResponse): GatewayContext | undefined {
  return (res as WithContext)[CONTEXT];
}
