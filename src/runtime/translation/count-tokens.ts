/**
 * count_tokens for any model: a messages-style `/v1/messages/count_tokens` or a generate-content
 * `:countTokens` request is decoded to the canonical shape and counted exactly by the vendor's own
 * counting endpoint when its protocol has one (the messages protocol's count_tokens, generate-content's
 * countTokens), else estimated by the gateway's tokenizer and answered with `x-gateway-token-count:
 * estimate`. Counting is free at the vendors, so a counted request is charged no tokens.
 */
import { GatewayError } from '../../errors.ts';
import { sendJson } from '../respond.ts';
import type { OpCall, OpHandler } from '../types.ts';
import { readAnswerJson } from '../read-answer-json.ts';
import { readVendorError } from '../vendor-error.ts';
import type { CanonicalRequest } from '../../translate/canonical.ts';
import { countRequestTokens } from './estimate-request-tokens.ts';
import { createFieldPolicy } from '../../translate/field-policy.ts';
import type { ClientCounter, VendorCounter } from '../../translate/counter.ts';

/** The count_tokens handler of a client style on a vendor (`counter` undefined: estimate locally). */
export function createCountTokensHandler(client: ClientCounter, counter: VendorCounter | undefined): OpHandler {
  return async (call: OpCall) => {
    const { ctx } = call;
    // Counting drops nothing the count depends on that the decoder can read; untranslatable fields are
    // left out of the count rather than rejected, whatever the strict setting.
    const policy = createFieldPolicy(false, client.client.fieldNames);
    const request: CanonicalRequest = client.client.decodeRequest(client.unwrap(call.body), { policy, stream: false });
    if (!counter) {
      const tokens = await countRequestTokens(request);
      return sendJson(ctx, 200, client.writeCount(tokens), { 'x-gateway-token-count': 'estimate' });
    }
    const wire = counter.vendor.encodeRequest(request, { model: call.target.upstream, policy, defaultMaxTokens: call.model.chat.defaultMaxTokens });
    const count = counter.toCountCall(call.target.upstream, wire.body);
    const response = await call.callVendor({
      method: 'POST', path: count.path, body: JSON.stringify(count.body), headers: { 'content-type': 'application/json', accept: 'application/json' },
    });
    if (response.status < 200 || response.status >= 300) throw await readVendorError(call.vendor, response);
    const answer = await readAnswerJson(call.vendor, response);
    const tokens = counter.readCount(answer);
    if (tokens === undefined) throw new GatewayError(502, 'upstream_invalid_response', 'The vendor answered without a token count.');
    ctx.usage.inputTokens = 0;
    ctx.usage.outputTokens = 0;
    ctx.usage.totalTokens = 0;
    sendJson(ctx, 200, client.writeCount(tokens));
  };
}
