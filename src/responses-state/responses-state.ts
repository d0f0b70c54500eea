import { randomBytes } from 'node:crypto';
import type { RequestBody } from '../runtime/request-body.ts';
import type { OpCall } from '../runtime/types.ts';
import type { PreparedState, TranslationState } from '../runtime/translation/handler.ts';
import type { ResponseMeta } from '../translate/adapter.ts';
import { isRecord } from '../translate/helpers.ts';
import { getResponsesLogger } from './log.ts';
import { getStoreScope } from './read-store.ts';
import { resolveInput } from './resolve-input.ts';
import type { ResponseItem } from '../response-store/response-store.ts';
import { toText } from '../lib/to-text.ts';

/** Whether a response may be kept: the request's `store` (default true), unless the model or key forbids it. */
function mayStore(call: OpCall<RequestBody<'Responses'>>): boolean {
  return call.body.store !== false && call.model.responses?.store !== false && call.ctx.key?.config.responses?.store !== false;
}

/**
 * Responses state kept by the gateway for vendors that keep none: before decoding, the request's
 * `previous_response_id` and `item_reference`s are resolved from the store into a whole history; after
 * the answer (before its last bytes leave) the response, its input and output items are kept under the
 * ids the client sees, bound to the client key. A response that cannot be kept (larger than
 * `server.responses.max_size`, or the store is unreachable) is answered anyway with `store: false`, and a
 * warning is logged.
 */
export const responsesState: TranslationState = {
  async prepare(call: OpCall): Promise<PreparedState> {
    const { store, key } = getStoreScope(call.ctx);
    if (!isRecord(call.body)) return { body: call.body, meta: {} };
    // The route's schema (responses) checked it: the fields the gateway reads have the types it declares.
    const body = call.body as RequestBody<'Responses'>;
    const resolved = await resolveInput(store, key, body);
    // What the state fields stand for is resolved here: the decoder sees a plain history.
    const { previous_response_id: previous, ...rest } = body;
    delete rest.store;
    const listed = typeof body.input === 'string' || Array.isArray(body.input);
    const decoded = listed ? { ...rest, input: [...resolved.context, ...resolved.input] } : rest;
    const storing = mayStore(call);
    const meta: Partial<ResponseMeta> = {
      id: randomBytes(12).toString('hex'),
      store: storing,
      previousResponseId: typeof previous === 'string' ? previous : undefined,
    };
    if (!storing) return { body: decoded, meta };
    const { responses: limits } = call.ctx.snapshot.config.server;
    return {
      body: decoded,
      meta,
      async keep(answer, final) {
        const output = Array.isArray(answer.output) ? (answer.output as ResponseItem[]) : [];
        const record = { id: toText(answer.id), model: toText(answer.model), response: answer, input: resolved.input, context: resolved.context };
        let kept = false;
        try {
          kept = await store.save(key, record, [...resolved.owned, ...output], limits);
          if (!kept) getResponsesLogger().warn({ response: record.id, maxBytes: limits.maxBytes }, 'response larger than server.responses.max_size: not stored');
        } catch (error) {
          getResponsesLogger().warn({ err: error, response: record.id }, 'response could not be stored');
        }
        if (kept) return;
        final.store = false;
        answer.store = false;
      },
    };
  },
};
