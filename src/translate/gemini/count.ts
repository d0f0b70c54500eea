/** The generate-content protocol's token counting, both sides (`POST /models/{model}:countTokens`). */
import type { ClientCounter, VendorCounter } from '../count-tokens.ts';
import { readCountField } from '../count-tokens.ts';
import { isRecord } from '../helpers.ts';
import { geminiAdapter } from './index.ts';

/** Counts on a generate-content vendor: the encoded request as `generateContentRequest`. */
export const geminiCounter: VendorCounter = {
  vendor: geminiAdapter,
  toCountCall: (upstream, body) => ({
    path: `/models/${encodeURIComponent(upstream)}:countTokens`,
    body: { generateContentRequest: { model: `models/${upstream}`, ...body } },
  }),
  readCount: (answer) => readCountField(answer, 'totalTokens'),
};

/** A `:countTokens` request (`{contents}` or `{generateContentRequest}`), answered `{totalTokens}`. */
export const geminiCountClient: ClientCounter = {
  client: geminiAdapter,
  unwrap: (body) => (isRecord(body) && isRecord(body.generateContentRequest) ? body.generateContentRequest : body),
  writeCount: (tokens) => ({ totalTokens: tokens }),
};
