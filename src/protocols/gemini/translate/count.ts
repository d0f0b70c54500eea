/** The generate-content protocol's token counting, both sides (`POST /models/{model}:countTokens`). */
import type { ClientCounter, VendorCounter } from '../../../translate/counter.ts';
import { readCountField } from '../../../translate/counter.ts';
import { isRecord } from '../../../translate/helpers.ts';
import { geminiChat } from './index.ts';

/** Counts on a generate-content vendor: the encoded request as `generateContentRequest`. */
export const geminiCounter: VendorCounter = {
  vendor: geminiChat,
  toCountCall: (upstream, body) => ({
    path: `/models/${encodeURIComponent(upstream)}:countTokens`,
    body: { generateContentRequest: { model: `models/${upstream}`, ...body } },
  }),
  readCount: (answer) => readCountField(answer, 'totalTokens'),
};

/** A `:countTokens` request (`{contents}` or `{generateContentRequest}`), answered `{totalTokens}`. */
export const geminiCountClient: ClientCounter = {
  client: geminiChat,
  unwrap: (body) => (isRecord(body) && isRecord(body.generateContentRequest) ? body.generateContentRequest : body),
  writeCount: (tokens) => ({ totalTokens: tokens }),
};
