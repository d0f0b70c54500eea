import { GatewayError } from '../errors.ts';
import { StoreUnavailableError } from '../limits/store.ts';
import type { RequestContext } from '../runtime/types.ts';
import type { ResponseStore } from '../response-store/response-store.ts';

/** The request's response store and its client key's name (lookups are scoped to the key). */
export function getStoreScope(ctx: RequestContext): { store: ResponseStore; key: string } {
  if (!ctx.responseStore || !ctx.key) throw new GatewayError(500, 'internal_error', 'No response store is set up.');
  return { store: ctx.responseStore, key: ctx.key.config.name };
}

/** Runs a store read; an unreachable store answers 503 (the response state cannot be read). */
export async function readStore<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    throw new GatewayError(503, 'response_store_unavailable', 'Stored responses cannot be read right now; try again shortly.', { cause: error, retryAfter: 1 });
  }
}

/** The 404 of a response id that is unknown, expired, deleted or another key's (no hint which). */
export function getResponseNotFound(id: string): GatewayError {
  return new GatewayError(404, 'response_not_found', `No response with id "${id.slice(0, 80)}" was found.`, { param: 'response_id' });
}
