import type { ModelEntry } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import { defineFeatureHandler, defineModellessHandler } from './plan.ts';
import { sendJson } from './respond.ts';
import type { OpCall, RequestContext } from './types.ts';

/** Listing timestamp: models come from config, which has no creation time. */
const CREATED = 1735689600;
const GEMINI_METHODS = ['generateContent', 'streamGenerateContent', 'countTokens'];

function listAllowed(ctx: RequestContext): ModelEntry[] {
  return [...ctx.snapshot.models.values()].filter((model) => ctx.key!.allows(model.id));
}

function toOpenAI(model: ModelEntry) {
  return { id: model.id, object: 'model', created: CREATED, owned_by: model.ownedBy };
}

function toAnthropic(model: ModelEntry) {
  return { type: 'model', id: model.id, display_name: model.id, created_at: new Date(CREATED * 1000).toISOString() };
}

function toGemini(model: ModelEntry) {
  return { name: `models/${model.id}`, version: '1', displayName: model.id, supportedGenerationMethods: GEMINI_METHODS };
}

function listGemini(ctx: RequestContext) {
  const all = listAllowed(ctx);
  const pageSize = Math.min(Math.max(Number(ctx.query.get('pageSize')) || 50, 1), 1000);
  const start = Number(ctx.query.get('pageToken') ?? 0) || 0;
  const page = all.slice(start, start + pageSize);
  const next = start + pageSize < all.length ? { nextPageToken: String(start + pageSize) } : {};
  return { models: page.map(toGemini), ...next };
}

/** `GET /v1/models` (OpenAI list, or Anthropic's when `anthropic-version` is sent) and `GET /v1beta/models`. */
export async function listModels(call: OpCall): Promise<void> {
  const { ctx } = call;
  if (ctx.style === 'gemini') return sendJson(ctx, 200, listGemini(ctx));
  const models = listAllowed(ctx);
  if (ctx.req.headers['anthropic-version'] !== undefined) {
    const data = models.map(toAnthropic);
    return sendJson(ctx, 200, { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
  }
  sendJson(ctx, 200, { object: 'list', data: models.map(toOpenAI) });
}

/** `GET /v1/models/{model}` and `GET /v1beta/models/{model}`: one model of the config. */
export async function getModel(call: OpCall): Promise<void> {
  const { ctx, model } = call;
  if (!model) throw new GatewayError(404, 'model_not_found', 'No such model.');
  if (ctx.style === 'gemini') return sendJson(ctx, 200, toGemini(model));
  if (ctx.req.headers['anthropic-version'] !== undefined) return sendJson(ctx, 200, toAnthropic(model));
  sendJson(ctx, 200, toOpenAI(model));
}

defineModellessHandler('models-list', listModels);
defineFeatureHandler('model-get', getModel);
