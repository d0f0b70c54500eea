import type { ResponsesStateKeeper } from '../config/types.ts';
import type { OpCall, OpHandler } from '../runtime/types.ts';
import { createTranslationHandler } from '../translate/handler.ts';
import { openAIChatAdapter } from '../translate/openai-chat/index.ts';
import { responsesAdapter } from '../translate/openai-responses/index.ts';
import { responsesState } from './responses-state.ts';

/**
 * Responses on an OpenAI-compatible vendor that keeps no Responses state (or has no Responses API): the
 * gateway keeps the state, resolves `previous_response_id` and `item_reference`s, and sends the vendor
 * chat completions, exactly as for Anthropic and Gemini vendors.
 */
const serveWithGatewayState = createTranslationHandler('openai', responsesAdapter, openAIChatAdapter, undefined, responsesState);

/** Who keeps this call's Responses state: the model's `responses.state`, else its vendor's, else the vendor. */
function getStateKeeper(call: OpCall): ResponsesStateKeeper {
  return call.model.responses?.state ?? call.vendor.config.responses?.state ?? 'vendor';
}

/**
 * Wraps the `POST /v1/responses` passthrough of OpenAI-protocol vendors: a target whose YAML says
 * `responses: { state: gateway }` (on the model or its vendor) is served with the gateway's state instead.
 */
export function chooseStateKeeper(passthrough: OpHandler): OpHandler {
  return (call) => (getStateKeeper(call) === 'gateway' ? serveWithGatewayState(call) : passthrough(call));
}
