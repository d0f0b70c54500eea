import { estimateTokens } from '../spend/estimate-tokens.ts';
import type { ChargedUsage, RequestContext } from './types.ts';
import { isMultipartContentType } from './json-bytes.ts';

/** Bytes of a streamed answer (SSE framing and JSON envelopes included) counted as one token. */
export const STREAM_BYTES_PER_TOKEN = 32;

/**
 * Completes `ctx.usage` with an estimate when the request called a vendor and its counts are missing or
 * partial (`finished`: the answer was complete, so counts the vendor did report are final). Runs only
 * when the request ends and someone reads its usage; a request with final counts costs two field reads.
 *
 * The billing rule's fallback: every request that reached a vendor is charged, streamed or not, finished
 * or aborted. When the vendor's own counts never arrived (the client left or the request failed before
 * the final usage event, or the vendor reports none), the gateway estimates:
 *
 * - input: the request's JSON body bytes / 4 (`estimateTokens` of src/spend/estimate-tokens.ts, from its `Content-Length`), unless
 *   the vendor already reported its input count;
 * - output: the bytes of the stream sent to the client / {@link STREAM_BYTES_PER_TOKEN}, or the vendor's
 *   partial count when that is higher. A stream's bytes are mostly framing (an OpenAI-protocol chunk is
 *   about 200 bytes for one token, a Gemini chunk about 40 bytes a token), so they are divided by more
 *   than text is; the estimate still errs high for one-token chunks, never low.
 *
 * The usage then carries `estimated: true` (in the usage event and the log line) and limits charge it.
 */
export function addUsageEstimate(ctx: RequestContext, finished: boolean): void {
  if (ctx.vendorCalls === 0) return;
  const usage = ctx.usage;
  if (finished && (usage.inputTokens !== undefined || usage.outputTokens !== undefined)) return;
  const input = usage.inputTokens ?? estimateTokens(readRequestBytes(ctx));
  const output = Math.max(usage.outputTokens ?? 0, Math.ceil(ctx.streamedBytes / STREAM_BYTES_PER_TOKEN));
  if (input === (usage.inputTokens ?? 0) && output === (usage.outputTokens ?? 0)) return;
  fillEstimate(usage, input, output);
}

function fillEstimate(usage: ChargedUsage, input: number, output: number): void {
  usage.inputTokens = input;
  usage.outputTokens = output;
  usage.totalTokens = input + output;
  usage.estimated = true;
}

/** The size of a JSON request body as announced (uploads are not text: they count nothing). */
function readRequestBytes(ctx: RequestContext): number {
  if (ctx.route.body !== 'json' || isMultipartContentType(ctx.req.headers['content-type'])) return 0;
  return Number(ctx.req.headers['content-length']) || 0;
}
