/** The messages protocol's token counting, both sides (`POST /v1/messages/count_tokens`). */
import type { ClientCounter, VendorCounter } from '../../../translate/counter.ts';
import { pickFields, readCountField } from '../../../translate/counter.ts';
import { anthropicChat } from './index.ts';

/** The fields count_tokens takes (the generation-only ones, such as `max_tokens`, it rejects). */
const COUNT_FIELDS = ['model', 'messages', 'system', 'tools', 'tool_choice'] as const;

/** Counts on a messages-protocol vendor: the encoded request, less its generation-only fields. */
export const anthropicCounter: VendorCounter = {
  vendor: anthropicChat,
  toCountCall: (_upstream, body) => ({ path: '/v1/messages/count_tokens', body: pickFields(body, COUNT_FIELDS) }),
  readCount: (answer) => readCountField(answer, 'input_tokens'),
};

/** A messages-style count request (a messages body without `max_tokens`), answered `{input_tokens}`. */
export const anthropicCountClient: ClientCounter = {
  client: anthropicChat,
  unwrap: (body) => body,
  writeCount: (tokens) => ({ input_tokens: tokens }),
};
