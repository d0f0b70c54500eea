import type { ResponsesStateKeeper } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import type { OpCall, OpHandler } from '../runtime/types.ts';
import { getStatefulTranslator } from '../runtime/translation/gateway-state.ts';
import { responsesState } from './responses-state.ts';

/** Who keeps this call's Responses state: the model's `responses.state`, else its vendor's, else the vendor. */
function getStateKeeper(call: OpCall): ResponsesStateKeeper {
  return call.model.responses?.state ?? call.vendor.config.responses?.state ?? 'vendor';
}

/**
 * Wraps the `POST /v1/responses` passthrough: a target whose YAML says `responses: { state: gateway }` (on
 * the model or its vendor: a compatible vendor that keeps no Responses state, or has no Responses API) is
 * served like Anthropic and Gemini targets instead: the gateway keeps the state, resolves
 * `previous_response_id` and `item_reference`s, and sends the vendor chat completions.
 */
export function chooseStateKeeper(passthrough: OpHandler): OpHandler {
  return (call) => {
    if (getStateKeeper(call) === 'vendor') return passthrough(call);
    const translate = getStatefulTranslator(call.ctx.route.op, call.ctx.style, call.vendor.config.protocol, responsesState);
    return translate ? translate(call) : passthrough(call);
  };
}

/**
 * Wraps the `/v1/responses/compact` passthrough: compacting needs a vendor that keeps Responses state, so a
 * target whose state the gateway keeps is refused with 400, as Anthropic and Gemini targets are.
 */
export function refuseCompactWithGatewayState(passthrough: OpHandler): OpHandler {
  return async (call) => {
    if (getStateKeeper(call) === 'vendor') return passthrough(call);
    throw new GatewayError(400, 'unsupported_parameter', "Compacting a response needs a vendor that keeps response state ('previous_response_id'); the vendor of this model does not.", { param: 'previous_response_id' });
  };
}
