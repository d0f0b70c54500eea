import type { Operation } from '../config/types.ts';
import { getProtocolAdapter } from '../protocols/index.ts';
import { createPassthrough } from '../runtime/passthrough.ts';
import type { OpCall, RequestContext } from '../runtime/types.ts';
import { callVendor } from '../runtime/vendor-call.ts';
import { getResponsesLogger } from './log.ts';
import { getResponseNotFound, getStoreScope, readStore } from './read-store.ts';

/** The lookups of a response a vendor keeps. */
type HeldOperation = Extract<Operation, 'responses-get' | 'responses-delete' | 'responses-input-items'>;

/**
 * Serves GET, DELETE or input_items of a response created through a vendor that keeps Responses state:
 * passed through (path, query and answer unchanged) to that vendor with the gateway's credentials, only for
 * the key that created it. An id this key has no note of (unknown, expired, another key's) is 404 before
 * any vendor call; a DELETE the vendor accepts, or a 404 of the vendor (it no longer keeps the response),
 * forgets the note, so later lookups of that id are answered 404 without calling the vendor again.
 */
export async function serveVendorHeld(ctx: RequestContext, op: HeldOperation): Promise<void> {
  const { store, key } = getStoreScope(ctx);
  const id = ctx.params.response_id ?? '';
  const name = await readStore(() => store.getVendorHeld(key, id));
  const vendor = name === undefined ? undefined : ctx.snapshot.vendors.get(name);
  const endpoint = vendor && getProtocolAdapter(vendor.config.protocol).passthrough[op];
  if (!vendor || !endpoint) throw getResponseNotFound(id);
  ctx.vendor = vendor;
  const call = {
    ctx,
    body: undefined,
    vendor,
    target: { vendor: vendor.config.name, upstream: '', weight: 1 },
    async callVendor(request) {
      const response = await callVendor(ctx, vendor, request);
      if (isGone(op, response.status)) {
        // The vendor deleted it or no longer keeps it: a note left behind (store unreachable) only sends later lookups to its 404.
        await store.deleteVendorHeld(key, id).catch((error: unknown) => getResponsesLogger().warn({ err: error, response: id.slice(0, 80) }, 'note of a response the vendor no longer keeps could not be removed'));
      }
      return response;
    },
  } as OpCall;
  await createPassthrough(endpoint)(call);
}

/** Whether the vendor's answer says it keeps the response no more: it deleted it, or does not know it. */
function isGone(op: HeldOperation, status: number): boolean {
  return status === 404 || (op === 'responses-delete' && status >= 200 && status < 300);
}
