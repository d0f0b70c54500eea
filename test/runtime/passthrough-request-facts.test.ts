/**
 * Property test of the chat-completions passthrough's request facts over arbitrary bodies: what reaches the
 * vendor never carries a field the vendor rejects or the other token-limit field, its numeric ranges hold,
 * the limit's value is the client's, values inside their ranges are kept, and the only failure is a 400 naming a field (under strict).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RequestFacts } from '../../src/config/types.ts';
import { GatewayError } from '../../src/errors.ts';
import { applyPassthroughFacts } from '../../src/runtime/passthrough-request-facts.ts';
import { runFuzz } from '../fuzz/fuzz-run.ts';

const facts: RequestFacts = { maxTokensField: 'max_tokens', unsupportedFields: ['presence_penalty', 'seed'], ranges: { temperature: { min: 0, max: 1 } } };

function createCall(body: Record<string, unknown>, strict: boolean): any {
  return {
    body,
    ctx: { headers: {}, key: { config: { strict } } },
    model: { chat: { strict: false } },
    vendor: { config: { protocol: 'openai', request: facts } },
  };
}

const field = fc.oneof(fc.double(), fc.integer(), fc.jsonValue());
const bodies = fc.record({
  model: fc.constant('m'),
  max_completion_tokens: field, max_tokens: field, temperature: field, top_p: field, seed: field, presence_penalty: field, stream: fc.boolean(),
}, { requiredKeys: ['model'] });

describe('request facts on the chat passthrough', () => {
  it('renames the token limit, clamps the declared range and drops rejected fields, whatever the body', async () => {
    await runFuzz('passthrough request facts', fc.record({ body: bodies, strict: fc.boolean() }), async ({ body, strict }) => {
      const call = createCall(body, strict);
      let sent: Record<string, unknown>;
      try {
        sent = applyPassthroughFacts(call) ?? body;
      } catch (error) {
        const ok = strict && error instanceof GatewayError && error.status === 400 && typeof error.param === 'string';
        return ok ? [] : [`threw ${String(error)}`];
      }
      const problems: string[] = [];
      if ('max_completion_tokens' in sent) problems.push('max_completion_tokens sent');
      const limit = body.max_tokens !== undefined ? body.max_tokens : body.max_completion_tokens;
      if (limit !== undefined && !Object.is(sent.max_tokens, limit)) problems.push('token limit changed');
      if ('seed' in sent || 'presence_penalty' in sent) problems.push('rejected field sent');
      if (typeof sent.temperature === 'number' && (sent.temperature < 0 || sent.temperature > 1)) problems.push(`temperature ${sent.temperature}`);
      if (typeof sent.top_p === 'number' && (sent.top_p < 0 || sent.top_p > 1)) problems.push(`top_p ${sent.top_p} outside the protocol's 0..1`);
      if (typeof body.top_p === 'number' && body.top_p >= 0 && body.top_p <= 1 && sent.top_p !== body.top_p) problems.push('top_p inside its range changed');
      const dropped = (body.seed !== undefined ? 1 : 0) + (body.presence_penalty !== undefined ? 1 : 0);
      if (dropped > 0 && call.ctx.headers['x-gateway-dropped-fields'] === undefined) problems.push('dropped fields not named');
      return problems;
    }, 300);
  });

  it('leaves a body the facts do not touch as it is (no copy sent)', () => {
    expect(applyPassthroughFacts(createCall({ model: 'm', max_tokens: 3, temperature: 0.5 }, false))).toBeUndefined();
  });
});
