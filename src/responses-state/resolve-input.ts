import { randomBytes } from 'node:crypto';
import { GatewayError } from '../errors.ts';
import { isRecord } from '../translate/helpers.ts';
import type { ResponseItem, ResponseStore } from '../response-store/response-store.ts';
import type { RequestBody } from '../runtime/request-body.ts';
import { getResponseNotFound, readStore } from './read-store.ts';
import { readOwn } from '../lib/read-own.ts';

/** A request's input with its stored state resolved. */
export interface ResolvedInput {
  /** The items `previous_response_id` stands for (its context, input and output, in order). */
  context: ResponseItem[];
  /** This request's items, `item_reference`s replaced by the items they name, each with an id. */
  input: ResponseItem[];
  /** The items this request introduces (not references), kept under their ids. */
  owned: ResponseItem[];
}

const ID_PREFIXES: Record<string, string> = { message: 'msg_', function_call: 'fc_', function_call_output: 'fco_' };

/** An id for an input item the client sent without one (listed by `input_items`, found by reference). */
function mintItemId(type: string): string {
  return (readOwn(ID_PREFIXES, type) ?? 'item_') + randomBytes(12).toString('hex');
}

/**
 * Resolves `previous_response_id` and `item_reference` items from the store (scoped to `key`): an id
 * that is unknown, expired or another key's is 404. Input that is not a string or a list is left to the
 * decoder (which names what is wrong).
 */
export async function resolveInput(store: ResponseStore, key: string, body: RequestBody<'Responses'>): Promise<ResolvedInput> {
  const context: ResponseItem[] = [];
  const previous = body.previous_response_id;
  if (previous !== undefined && previous !== null) {
    if (typeof previous !== 'string' || previous === '') {
      throw new GatewayError(400, 'invalid_request', 'Invalid field "previous_response_id": must be a response id.', { param: 'previous_response_id' });
    }
    const record = await readStore(() => store.get(key, previous));
    if (!record) throw getResponseNotFound(previous);
    context.push(...record.context, ...record.input, ...((record.response.output as ResponseItem[] | undefined) ?? []));
  }
  const raw = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: body.input }] }] : body.input;
  if (!Array.isArray(raw)) return { context, input: [], owned: [] };
  const input: ResponseItem[] = [];
  const owned: ResponseItem[] = [];
  for (let i = 0; i < raw.length; i++) {
    const item = raw[i];
    if (!isRecord(item)) {
      input.push(item as ResponseItem);
      continue;
    }
    if (item.type === 'item_reference') {
      input.push(await readReference(store, key, item.id, i));
      continue;
    }
    const own = normalizeItem(item);
    input.push(own);
    owned.push(own);
  }
  return { context, input, owned };
}

/**
 * An input item as it is kept and listed: with an id (minted when absent), `type: "message"` on a message
 * without one and its string content as one text part, as the API lists input items.
 */
function normalizeItem(item: Record<string, any>): ResponseItem {
  const type = item.type ?? 'message';
  const id = typeof item.id === 'string' && item.id !== '' ? item.id : mintItemId(typeof type === 'string' ? type : '');
  if (type !== 'message') return { id, ...item };
  const text = item.role === 'assistant' ? 'output_text' : 'input_text';
  const content = typeof item.content === 'string' ? [{ type: text, text: item.content }] : item.content;
  return { id, ...item, type, content };
}

async function readReference(store: ResponseStore, key: string, id: unknown, index: number): Promise<ResponseItem> {
  const param = `input[${index}].id`;
  if (typeof id !== 'string' || id === '') {
    throw new GatewayError(400, 'invalid_request', `Invalid field "${param}": must be an item id.`, { param });
  }
  const item = await readStore(() => store.getItem(key, id));
  if (!item) throw new GatewayError(404, 'item_not_found', `No item with id "${id.slice(0, 80)}" was found.`, { param });
  return item;
}
