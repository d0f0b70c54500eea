import type { ServerResponse } from 'node:http';
import { createOpenAIError } from './errors.ts';
import type { OpenAIState } from './state.ts';
import { sendJson, type SimRequest } from '../../../simulators/sim-server.ts';
import { isObject } from '../../../simulators/text.ts';

/** The 404 OpenAI answers for a response id it does not hold (unknown, deleted or never stored). */
function createNotFound(id: string): ReturnType<typeof createOpenAIError> {
  return createOpenAIError(`Response with id '${id}' not found.`, 'invalid_request_error');
}

/**
 * The input items of a new response: those of `previous_response_id` (its input then its output) and the
 * request's own, each with an id as `input_items` lists them; a `string` error when the previous response
 * is unknown (OpenAI answers 400 `previous_response_not_found`).
 */
export function readInputItems(state: OpenAIState, body: Record<string, any>): Record<string, any>[] | string {
  const items: Record<string, any>[] = [];
  if (typeof body.previous_response_id === 'string') {
    const previous = state.responses.get(body.previous_response_id);
    if (!previous) return body.previous_response_id;
    items.push(...previous.inputItems, ...previous.response.output);
  }
  const own = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : Array.isArray(body.input) ? body.input : [];
  for (const item of own) {
    if (!isObject(item)) continue;
    if (item.type === 'item_reference') continue;
    const type = item.type ?? 'message';
    const content = type === 'message' && typeof item.content === 'string' ? [{ type: item.role === 'assistant' ? 'output_text' : 'input_text', text: item.content }] : item.content;
    items.push({ id: item.id ?? `${type === 'message' ? 'msg' : 'item'}_${state.nextId()}`, ...item, type, ...(content === undefined ? {} : { content }) });
  }
  return items;
}

/** The 400 OpenAI answers for an unknown `previous_response_id`. */
export function createPreviousNotFound(id: string): ReturnType<typeof createOpenAIError> {
  return createOpenAIError(`Previous response with id '${id}' not found.`, 'invalid_request_error', 'previous_response_id', 'previous_response_not_found');
}

/** The response id of a `/v1/responses/{id}[/input_items]` path. */
function readId(req: SimRequest): string {
  return decodeURIComponent(req.path.slice('/v1/responses/'.length).replace(/\/input_items$/, ''));
}

/** GET /v1/responses/{id}: the stored response (OpenAI API reference, "Get a model response"). */
export function handleGetResponse(state: OpenAIState, req: SimRequest, res: ServerResponse): void {
  const id = readId(req);
  const stored = state.responses.get(id);
  if (!stored) return sendJson(res, 404, createNotFound(id));
  sendJson(res, 200, stored.response);
}

/** DELETE /v1/responses/{id}: `{id, object: "response", deleted: true}` (OpenAI API reference). */
export function handleDeleteResponse(state: OpenAIState, req: SimRequest, res: ServerResponse): void {
  const id = readId(req);
  if (!state.responses.delete(id)) return sendJson(res, 404, createNotFound(id));
  sendJson(res, 200, { id, object: 'response', deleted: true });
}

/**
 * GET /v1/responses/{id}/input_items: a cursor page `{object: "list", data, first_id, last_id, has_more}`,
 * `limit` 1..100 (default 20), `order` `desc` (default) or `asc`, `after` an item id.
 */
export function handleListInputItems(state: OpenAIState, req: SimRequest, res: ServerResponse): void {
  const id = readId(req);
  const stored = state.responses.get(id);
  if (!stored) return sendJson(res, 404, createNotFound(id));
  const query = new URLSearchParams(req.search);
  const limit = Number(query.get('limit') ?? 20);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    return sendJson(res, 400, createOpenAIError(`Invalid 'limit': integer below minimum value or above maximum value.`, 'invalid_request_error', 'limit', 'integer_out_of_range'));
  }
  const order = query.get('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') {
    return sendJson(res, 400, createOpenAIError(`Invalid value for 'order': must be 'asc' or 'desc'.`, 'invalid_request_error', 'order', 'invalid_value'));
  }
  let items = order === 'desc' ? [...stored.inputItems].reverse() : [...stored.inputItems];
  const after = query.get('after');
  if (after !== null) {
    const at = items.findIndex((item) => item.id === after);
    items = at === -1 ? [] : items.slice(at + 1);
  }
  const data = items.slice(0, limit);
  sendJson(res, 200, { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: items.length > data.length });
}
