import type { RequestBody } from '../runtime/request-body.ts';
import type { OpCall, OpHandler } from '../runtime/types.ts';
import { getResponsesLogger } from './log.ts';
import { watchAnswerId } from './watch-answer-id.ts';

/**
 * Wraps the `POST /v1/responses` passthrough to a vendor that keeps Responses state: when the vendor's
 * answer carries a response id (a JSON answer's id, a stream's `response.created`), the gateway notes
 * id -> vendor for the creating key (same store and TTL as its own responses, never the body), so that
 * GET, DELETE and input_items of that id reach the vendor that holds it. `store: false` notes nothing.
 */
export function recordVendorHeld(passthrough: OpHandler): OpHandler<RequestBody<'Responses'>> {
  return (call: OpCall<RequestBody<'Responses'>>) => {
    const { ctx } = call;
    const store = ctx.responseStore;
    if (call.body?.store === false || !store || !ctx.key) return passthrough(call);
    const key = ctx.key.config.name;
    const { ttlMs } = ctx.snapshot.config.server.responses;
    return passthrough({
      ...call,
      async callVendor(request, vendorName) {
        const response = await call.callVendor(request, vendorName);
        if (response.status < 200 || response.status >= 300) return response;
        const vendor = vendorName ?? call.vendor.config.name;
        return watchAnswerId(response, (id) =>
          store.saveVendorHeld(key, id, vendor, ttlMs).catch((error: unknown) => {
            getResponsesLogger().warn({ err: error, response: id.slice(0, 80), vendor }, 'response id kept by the vendor could not be noted: GET and DELETE of it will answer 404');
          }),
        );
      },
    });
  };
}
