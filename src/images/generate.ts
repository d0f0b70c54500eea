import type { ImageOptions } from '../config/types.ts';
import type { OpCall, Usage } from '../runtime/types.ts';
import { mapBounded } from './bounded.ts';
import { withImageCount } from './request.ts';
import type { ImageBackend, ImageBatch, ImageRequest } from './types.ts';

/** Vendor calls of one split request running at once. */
export const SPLIT_CONCURRENCY = 4;

const TOKEN_FIELDS = ['input_tokens', 'output_tokens', 'total_tokens'] as const;

function addUsage(total: Usage, part: Usage | undefined): Usage {
  if (!part) return total;
  const sum = (a?: number, b?: number) => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));
  return {
    inputTokens: sum(total.inputTokens, part.inputTokens),
    outputTokens: sum(total.outputTokens, part.outputTokens),
    totalTokens: sum(total.totalTokens, part.totalTokens),
  };
}

/** The vendor's usage objects of the parts, summed field by field (token counts only). */
function addRawUsage(parts: readonly ImageBatch[]): Record<string, number> | undefined {
  if (!parts.every((part) => part.rawUsage && typeof part.rawUsage === 'object')) return undefined;
  const total: Record<string, number> = {};
  for (const field of TOKEN_FIELDS) {
    for (const part of parts) {
      const value = (part.rawUsage as Record<string, unknown>)[field];
      if (typeof value === 'number') total[field] = (total[field] ?? 0) + value;
    }
  }
  return total;
}

/** One answer from the parts of a split request, images in part order. */
function mergeBatches(parts: readonly ImageBatch[]): ImageBatch {
  if (parts.length === 1) return parts[0];
  return {
    created: Math.max(...parts.map((part) => part.created)),
    data: parts.flatMap((part) => part.data),
    extras: parts[0].extras,
    usage: parts.some((part) => part.usage) ? parts.reduce<Usage>((total, part) => addUsage(total, part.usage), {}) : undefined,
    rawUsage: addRawUsage(parts),
  };
}

/**
 * Calls the vendor once per planned part (`[undefined]`: once, with the body as it is), at most
 * {@link SPLIT_CONCURRENCY} at a time under the request's one deadline and signal, and merges the
 * answers in order. If any part fails the whole request fails with that part's error; parts not yet
 * started are not started and polling parts stop.
 */
export async function generateImages(
  call: OpCall,
  backend: ImageBackend,
  request: ImageRequest,
  options: ImageOptions,
  parts: readonly (number | undefined)[],
): Promise<ImageBatch> {
  const batches = await mapBounded(parts, SPLIT_CONCURRENCY, call.ctx.signal, (n, _index, signal) =>
    backend.generate(call, n === undefined ? request.vendorBody : withImageCount(request, options, n), signal),
  );
  return mergeBatches(batches);
}
