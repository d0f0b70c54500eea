/**
 * The translating OpHandler: client request -> canonical -> vendor request; vendor answer (JSON or
 * SSE, incrementally) -> canonical -> client answer. Fills the request's usage from the vendor's counts.
 */
import type { Style } from '../../config/types.ts';
import { getProtocolAdapter } from '../../protocols/index.ts';
import { sendJson } from '../respond.ts';
import type { OpCall, OpHandler, RequestContext } from '../types.ts';
import type { CanonicalRequest, CanonicalUsage } from '../../translate/canonical.ts';
import type { ClientAdapter, ResponseMeta, VendorAdapter } from '../../translate/adapter.ts';
import { formatDroppedFields } from '../../translate/dropped-fields-header.ts';
import { createFieldPolicy } from '../../translate/field-policy.ts';
import { createIdSuffix } from '../../translate/helpers.ts';
import { readTokenCount } from '../json-usage.ts';
import { readVendorError } from '../vendor-error.ts';
import { answerStream } from './stream-answer.ts';
import { readAnswerJson } from '../read-answer-json.ts';
import { estimateRequestTokens } from './estimate-request-tokens.ts';
import { stripForeignReasoning } from '../../translate/reasoning-signature.ts';

/** State a client style keeps in the gateway (Responses): read before decoding, kept after answering. */
export interface TranslationState {
  prepare(call: OpCall): Promise<PreparedState>;
}

/** A request with its state resolved: the body to decode, the answer's identity, and where the answer goes. */
export interface PreparedState {
  body: unknown;
  meta: Partial<ResponseMeta>;
  /** Keeps the final answer object before its last bytes leave; may set `store: false` on it and `meta`. */
  keep?(answer: Record<string, unknown>, meta: ResponseMeta): Promise<void>;
}
import { applyRanges, dropUnsupportedFields, getRequestFacts } from '../../translate/request-facts.ts';

/** A client style's adapter and the vendor protocol's adapter joined into one handler. */
export function createTranslationHandler(style: Style, client: ClientAdapter, vendor: VendorAdapter, stream?: boolean, state?: TranslationState): OpHandler {
  return async (call: OpCall) => {
    const { ctx } = call;
    const strict = call.model.chat.strict || ctx.key?.config.strict === true;
    const policy = createFieldPolicy(strict, client.fieldNames);
    const prepared = state ? await state.prepare(call) : undefined;
    const facts = getRequestFacts(getProtocolAdapter(call.vendor.config.protocol).requestFacts, call.vendor.config, call.model);
    const origin = call.vendor.signatureOrigin;
    const decoded = applyRanges(client.decodeRequest(prepared ? prepared.body : call.body, { policy, stream }), facts, policy, client.fieldNames);
    const request = stripForeignReasoning(decoded, origin, style === call.vendor.config.protocol);
    const wire = vendor.encodeRequest(request, {
      model: call.target.upstream, policy, defaultMaxTokens: call.model.chat.defaultMaxTokens, cache: call.model.chat.cache, maxTokensField: facts.maxTokensField,
      reasoningBudgets: call.model.chat.reasoning, reasoningShape: facts.reasoning, fieldNames: client.fieldNames,
    });
    dropUnsupportedFields(wire.body, facts, policy, client.fieldNames);
    // Built before the vendor is called: once it has answered, nothing here may fail.
    const dropped = formatDroppedFields(policy.dropped);
    const headers: Record<string, string> = dropped === undefined ? {} : { 'x-gateway-dropped-fields': dropped };
    const response = await call.callVendor({
      method: 'POST',
      path: wire.path,
      body: JSON.stringify(wire.body),
      headers: { 'content-type': 'application/json', accept: request.stream ? 'text/event-stream' : 'application/json', ...wire.headers },
    });
    if (response.status < 200 || response.status >= 300) throw await readVendorError(call.vendor, response);
    const model = ctx.modelId ?? call.model.id;
    const makeMeta = prepared
      ? (id: string | undefined) => ({ ...createMeta(id, model, origin), ...prepared.meta })
      : (id: string | undefined) => createMeta(id, model, origin);
    if (!request.stream) return answerWhole(ctx, client, vendor, request, await readAnswerJson(call.vendor, response), headers, makeMeta, prepared?.keep);
    const estimateInputTokens = () => estimateRequestTokens(request);
    return answerStream({
      ctx, style, client, vendor, request, response, model, headers, runtimeVendor: call.vendor,
      createMeta: (id) => {
        const meta = makeMeta(id);
        meta.estimateInputTokens = estimateInputTokens;
        return meta;
      },
      recordUsage: (usage) => recordUsage(ctx, usage),
      keep: prepared?.keep,
    });
  };
}

/** Copies canonical usage into the request's usage (read by the core's usage event): well-formed counts only. */
function recordUsage(ctx: RequestContext, usage: CanonicalUsage): void {
  const target = ctx.usage;
  const input = readTokenCount(usage.inputTokens);
  const output = readTokenCount(usage.outputTokens);
  if (input !== undefined) target.inputTokens = input;
  if (output !== undefined) target.outputTokens = output;
  const total = readTokenCount(usage.totalTokens);
  if (total !== undefined || input !== undefined || output !== undefined) target.totalTokens = readTokenCount(total ?? (input ?? 0) + (output ?? 0));
  // The detail counts copied as they are, each by name (a loop over their names stored by a computed key).
  const cached = readTokenCount(usage.cachedInputTokens);
  if (cached !== undefined) target.cachedInputTokens = cached;
  const created = readTokenCount(usage.cacheCreationInputTokens);
  if (created !== undefined) target.cacheCreationInputTokens = created;
  const reasoning = readTokenCount(usage.reasoningTokens);
  if (reasoning !== undefined) target.reasoningTokens = reasoning;
}

/** The answer's identity; one literal (not spread copies of one): it is made on every request. */
function createMeta(id: string | undefined, model: string, origin: string): ResponseMeta {
  return { id: id || createIdSuffix(), model, created: Math.floor(Date.now() / 1000), origin };
}

/** Sends a whole (not streamed) answer, `body` being the vendor's JSON, re-encoded in the client's style. */
async function answerWhole(
  ctx: RequestContext, client: ClientAdapter, vendor: VendorAdapter, request: CanonicalRequest,
  body: unknown, headers: Record<string, string>, makeMeta: (id: string | undefined) => ResponseMeta,
  keep?: PreparedState['keep'],
): Promise<void> {
  const answer = vendor.decodeResponse(body);
  recordUsage(ctx, answer.usage);
  ctx.finishReasons = [answer.finishReason];
  const meta = makeMeta(answer.id);
  const encoded = client.encodeResponse(answer, meta, request);
  if (keep) await keep(encoded as Record<string, unknown>, meta);
  sendJson(ctx, 200, encoded, headers);
}
