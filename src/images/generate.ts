import type { ImageOptions } from '../config/types.ts';
import type { OpCall, Usage } from '../runtime/types.ts';
import { readTokenCount } from '../runtime/json-usage.ts';
import { mapBounded } from './bounded.ts';
import { withImageCount } from './request.ts';
import type { ImageBackend, ImageBatch, ImageRequest } from './types.ts';

/** Vendor calls of one split request running at once. */
export const SPLIT_CONCURRENCY = 4;

const TOKEN_FIELDS = ['input_tokens', 'output_tokens', 'total_tokens'] as const;

/**
 * The parts' usage summed field by field, only from well-formed counts ({@link readTokenCount}): a vendor's
 * string, fraction, negative or huge number never reaches the usage event (limits, spend, metrics). A sum
 * that is no safe count is left out too. Undefined when no part reported usage.
 */
function sumUsage(parts: readonly ImageBatch[]): Usage | undefined {
  if (!parts.some((part) => part.usage)) return undefined;
  const total: Usage = {};
  const fields = new Set(parts.flatMap((part) => Object.keys(part.usage ?? {}) as (keyof Usage)[]));
  for (const field of fields) {
    let sum: number | undefined;
    for (const part of parts) {
      const count = readTokenCount(part.usage?.[field]);
      if (count !== undefined) sum = (sum ?? 0) + count;
    }
    const safe = readTokenCount(sum);
    if (safe !== undefined) total[field] = safe;
  }
  return total;
}

/** The vendor's usage objects of the parts, summed field by field (well-formed token counts only, a sum too large left out). */
function addRawUsage(parts: readonly ImageBatch[]): Record<string, number> | undefined {
  if (!parts.every((part) => part.rawUsage && typeof part.rawUsage === 'object')) return undefined;
  const total: Record<string, number> = {};
  for (const field of TOKEN_FIELDS) {
    for (const part of parts) {
      const value = readTokenCount((part.rawUsage as Record<string, unknown>)[field]);
      if (value !== undefined) total[field] = (total[field] ?? 0) + value;
    }
    if (readTokenCount(total[field]) === undefined) delete total[field];
  }
  return total;
}

/** One answer from the parts of a split request, images in part order. */
function mergeBatches(parts: readonly ImageBatch[]): ImageBatch {
  if (parts.length === 1) return { ...parts[0], usage: sumUsage(parts) };
  return {
    created: Math.max(...parts.map((part) => part.created)),
    data: parts.flatMap((part) => part.data),
    extras: parts[0].extras,
    usage: sumUsage(parts),
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
