/**
 * Request facts on the chat-completions passthrough: an OpenAI-compatible vendor declared in YAML to read
 * only `max_tokens`, to reject some optional fields, or to take a narrower temperature / top_p range gets
 * the client's request in that form, as a translated request would be sent. Models and vendors declaring
 * no `request:` keep the passthrough untouched (the client's bytes, no parse work added).
 */
import type { RequestFacts } from '../config/types.ts';
import { getProtocolAdapter } from '../protocols/index.ts';
import { formatDroppedFields } from '../translate/dropped-fields-header.ts';
import { createFieldPolicy } from '../translate/field-policy.ts';
import { dropUnsupportedFields, fitRange, getRequestFacts } from '../translate/request-facts.ts';
import type { HandlerSet } from './dispatch-table.ts';
import type { PassthroughBody } from './request-body.ts';
import type { OpCall } from './types.ts';

const NO_NAMES: Readonly<Record<string, string>> = {};

/** Renames the output-token limit to the field the vendor or model declares it reads. */
function moveMaxTokens(body: Record<string, unknown>, field: RequestFacts['maxTokensField']): void {
  const other = field === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
  if (field === undefined || body[other] === undefined) return;
  if (body[field] === undefined) body[field] = body[other];
  delete body[other];
}

/** The chat body the vendor accepts, or undefined when the facts change nothing in it. */
export function applyPassthroughFacts(call: OpCall<PassthroughBody>): PassthroughBody | undefined {
  const facts = getRequestFacts(getProtocolAdapter(call.vendor.config.protocol).requestFacts, call.vendor.config, call.model);
  const strict = call.model.chat.strict || call.ctx.key?.config.strict === true;
  const policy = createFieldPolicy(strict);
  const body: PassthroughBody = { ...call.body };
  moveMaxTokens(body, call.model.request?.maxTokensField ?? call.vendor.config.request?.maxTokensField);
  for (const [field, range] of [['temperature', facts.ranges?.temperature], ['top_p', facts.ranges?.topP]] as const) {
    const value = body[field];
    if (typeof value === 'number') body[field] = fitRange(value, range, policy, field);
  }
  dropUnsupportedFields(body, facts, policy, NO_NAMES);
  const dropped = formatDroppedFields(policy.dropped);
  if (dropped !== undefined) call.ctx.headers['x-gateway-dropped-fields'] = dropped;
  const changed = Object.keys(body).length !== Object.keys(call.body).length || Object.keys(body).some((name) => body[name] !== call.body[name]);
  return changed ? body : undefined;
}

/** The chat-completions passthrough with the request facts of its vendor and model applied. */
export const requestFactsHandlers: HandlerSet = {
  passthroughWrappers: {
    chat: (passthrough) => (call: OpCall<PassthroughBody>) => {
      if (!call.model.request && !call.vendor.config.request) return passthrough(call);
      const body = applyPassthroughFacts(call);
      if (body === undefined) return passthrough(call);
      return passthrough({ ...call, body, raw: Buffer.from(JSON.stringify(body)) });
    },
  },
};
