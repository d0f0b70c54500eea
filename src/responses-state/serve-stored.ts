import { GatewayError } from '../errors.ts';
import type { HandlerSet } from '../runtime/dispatch-table.ts';
import { sendJson } from '../runtime/respond.ts';
import type { OpCall, RequestContext } from '../runtime/types.ts';
import { getStoreScope, readStore } from './read-store.ts';
import { serveVendorHeld } from './serve-vendor-held.ts';
import type { ResponseItem, StoredResponse } from '../response-store/response-store.ts';

/** The response the path names kept by the gateway for the caller's key, or undefined. */
async function readStored(ctx: RequestContext): Promise<StoredResponse | undefined> {
  const { store, key } = getStoreScope(ctx);
  return readStore(() => store.get(key, ctx.params.response_id ?? ''));
}

/** `GET /v1/responses/{id}`: the response as it was answered (from the vendor that keeps it, if one does). */
async function getResponse({ ctx }: OpCall): Promise<void> {
  const record = await readStored(ctx);
  if (!record) return serveVendorHeld(ctx, 'responses-get');
  sendJson(ctx, 200, record.response);
}

/** `DELETE /v1/responses/{id}`: forgets the response and the items it introduced (or asks its vendor to). */
async function deleteResponse({ ctx }: OpCall): Promise<void> {
  const { store, key } = getStoreScope(ctx);
  const id = ctx.params.response_id ?? '';
  if (!(await readStore(() => store.delete(key, id)))) return serveVendorHeld(ctx, 'responses-delete');
  sendJson(ctx, 200, { id, object: 'response', deleted: true });
}

/** Reads `limit` (1..100, default 20), `order` (`asc` or `desc`, the default) and `after` (an item id). */
function readPage(query: URLSearchParams): { limit: number; order: 'asc' | 'desc'; after?: string } {
  const limitText = query.get('limit');
  const limit = limitText === null ? 20 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new GatewayError(400, 'invalid_request', 'Invalid query parameter "limit": must be an integer from 1 to 100.', { param: 'limit' });
  }
  const order = query.get('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') {
    throw new GatewayError(400, 'invalid_request', 'Invalid query parameter "order": must be "asc" or "desc".', { param: 'order' });
  }
  return { limit, order, after: query.get('after') ?? undefined };
}

/**
 * `GET /v1/responses/{id}/input_items`: the items the response was made from (its context and input),
 * paged; the query of a response a vendor keeps goes to that vendor as it is.
 */
async function listInputItems({ ctx }: OpCall): Promise<void> {
  const record = await readStored(ctx);
  if (!record) return serveVendorHeld(ctx, 'responses-input-items');
  const page = readPage(ctx.query);
  let items: ResponseItem[] = [...record.context, ...record.input];
  if (page.order === 'desc') items.reverse();
  if (page.after !== undefined) {
    const at = items.findIndex((item) => item.id === page.after);
    items = at === -1 ? [] : items.slice(at + 1);
  }
  const data = items.slice(0, page.limit);
  sendJson(ctx, 200, {
    object: 'list',
    data,
    first_id: data[0]?.id ?? null,
    last_id: data[data.length - 1]?.id ?? null,
    has_more: items.length > data.length,
  });
}

/** GET, DELETE and input_items of stored responses (passed to the vendor for vendor-kept ids). */
export const storedResponseHandlers: HandlerSet = {
  modelless: { 'responses-get': getResponse, 'responses-delete': deleteResponse, 'responses-input-items': listInputItems },
};
