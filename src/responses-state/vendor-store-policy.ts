import type { HandlerSet } from '../runtime/dispatch-table.ts';
import type { RequestBody } from '../runtime/request-body.ts';
import type { OpCall, OpHandler } from '../runtime/types.ts';
import { chooseStateKeeper, refuseCompactWithGatewayState } from './choose-state-keeper.ts';
import { recordVendorHeld } from './record-vendor-held.ts';

/** Whether YAML forbids keeping responses of this call's model or key (`responses: { store: false }`). */
function isStoreForbidden(call: OpCall): boolean {
  return call.model.responses?.store === false || call.ctx.key?.config.responses?.store === false;
}

/**
 * `responses: { store: false }` on a model or key holds for vendors that keep Responses state themselves
 * too: their passed-through request is sent with `store: false` (the client's other bytes unchanged in
 * meaning), so the vendor keeps nothing either.
 */
function applyStorePolicy(passthrough: OpHandler): OpHandler<RequestBody<'Responses'>> {
  return (call) => {
    if (!isStoreForbidden(call) || call.body?.store === false) return passthrough(call);
    const body = { ...call.body, store: false };
    return passthrough({ ...call, body, raw: Buffer.from(JSON.stringify(body)) });
  };
}

/**
 * The `POST /v1/responses` passthrough of OpenAI-protocol vendors: served with the gateway's state when YAML
 * says so, else under the store policy, noting which vendor keeps each response.
 */
/** The Responses passthroughs: who keeps the state, the store policy, and the note of vendor-kept ids. */
export const responsesPassthroughHandlers: HandlerSet = {
  passthroughWrappers: {
    responses: (passthrough) => chooseStateKeeper(applyStorePolicy(recordVendorHeld(passthrough))),
    'responses-compact': refuseCompactWithGatewayState,
  },
};
