import type { ImageOptions } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import type { ImageRequest } from './types.ts';

/** At most this many vendor calls serve one split request. */
export const MAX_SPLIT_PARTS = 10;

/**
 * The image count of each vendor call a request needs: one call when `n` is within the model's
 * `max_n` (`[undefined]`: the body's own n, or none), otherwise — if the YAML turns on `split_n` —
 * calls of `max_n` images and one with the rest. Without `split_n`, a larger `n` is a 400 naming the limit.
 */
export function planImageParts(request: ImageRequest, options: ImageOptions, modelId: string): (number | undefined)[] {
  const { maxN } = options;
  const { nParam } = request;
  if (maxN === undefined || request.n <= maxN) return [undefined];
  if (!options.splitN) {
    const message = `Model '${modelId}' accepts at most n=${maxN} per request; send ${Math.ceil(request.n / maxN)} requests.`;
    throw new GatewayError(400, 'invalid_value', message, { param: nParam });
  }
  const limit = maxN * MAX_SPLIT_PARTS;
  if (request.n > limit) {
    const message = `\`${nParam}\` must be at most ${limit} for model '${modelId}' (${MAX_SPLIT_PARTS} calls of ${maxN}).`;
    throw new GatewayError(400, 'invalid_value', message, { param: nParam });
  }
  const parts: number[] = [];
  for (let left = request.n; left > 0; left -= maxN) parts.push(Math.min(maxN, left));
  return parts;
}
