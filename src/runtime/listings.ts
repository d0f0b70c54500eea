import type { ModelEntry } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import { getStyleFacts } from '../protocols/styles.ts';
import type { HandlerSet } from './dispatch-table.ts';
import { getAnswerStyle } from './request-style.ts';
import { sendJson } from './respond.ts';
import type { OpCall, RequestContext } from './types.ts';

function listAllowed(ctx: RequestContext): ModelEntry[] {
  return [...ctx.snapshot.models.values()].filter((model) => ctx.key!.allows(model.id));
}

/** `GET /v1/models` and `GET /v1beta/models`: the models the key may use, listed the way the client's style lists them. */
export async function listModels(call: OpCall): Promise<void> {
  const { ctx } = call;
  sendJson(ctx, 200, getStyleFacts(getAnswerStyle(ctx)).writeModelList(listAllowed(ctx), ctx.query));
}

/** `GET /v1/models/{model}` and `GET /v1beta/models/{model}`: one model of the config. */
export async function getModel(call: OpCall): Promise<void> {
  const { ctx, model } = call;
  if (!model) throw new GatewayError(404, 'model_not_found', 'No such model.');
  sendJson(ctx, 200, getStyleFacts(getAnswerStyle(ctx)).writeModel(model));
}

/** The model listings: the list names no model; one model is looked up like any model route. */
export const listingHandlers: HandlerSet = { modelless: { 'models-list': listModels }, features: { 'model-get': getModel } };
