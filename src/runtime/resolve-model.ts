import { GatewayError } from '../errors.ts';
import { clipClientText } from '../lib/clip-text.ts';
import { getStyleFacts } from '../protocols/styles.ts';
import { decodeTaskId } from './task-id.ts';
import type { RequestContext } from './types.ts';

/** The model id of a request, read from where its route says (body, path, query, multipart or task id);
 * `body` is the parsed JSON body, if any (its field `name` is read, whatever else it holds);
 * `multipartModel` is the form field read from a multipart body (also on JSON routes taking multipart). */
export function readModelId(ctx: RequestContext, body: unknown, multipartModel?: string): string {
  const { from, name } = ctx.route.model;
  let value: unknown;
  if (from === 'body') value = multipartModel ?? readBodyField(body, name);
  else if (from === 'path') value = ctx.params[name];
  else if (from === 'query') value = ctx.query.get(name);
  else if (from === 'multipart') value = multipartModel;
  else if (from === 'task') {
    const claims = decodeTaskId(ctx.params[name] ?? '', ctx.snapshot.taskSecret, ctx.key!.config.name);
    ctx.params[name] = claims.task;
    value = claims.model;
  }
  if (typeof value !== 'string' || value === '') {
    throw new GatewayError(400, 'missing_model', `The request names no model (expected in ${from} "${name}").`, { param: name });
  }
  const { readModelName } = getStyleFacts(ctx.style);
  return readModelName ? readModelName(value) : value;
}

/** The field `name` of a parsed JSON body (undefined when the body is no object or has none). */
function readBodyField(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

/**
 * Looks the model up and checks the key may use it: 404 unknown, 403 not allowed (the id quoted clipped).
 * The request's model is the asked-for id from here on (clipped), so a refused request's log line and the
 * console's tail name what was asked.
 */
export function resolveModel(ctx: RequestContext, id: string) {
  ctx.modelId = clipClientText(id);
  const model = ctx.snapshot.models.get(id);
  if (!model) throw new GatewayError(404, 'model_not_found', `The model "${clipClientText(id)}" does not exist.`, { param: 'model' });
  if (!ctx.key!.allows(id)) {
    throw new GatewayError(403, 'model_not_allowed', `This key may not use the model "${clipClientText(id)}".`, { param: 'model' });
  }
  return model;
}
