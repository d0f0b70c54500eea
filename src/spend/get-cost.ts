import type { ModelPrice } from '../config/types.ts';

/**
 * The usage fields pricing reads. Counts are normalised the same way for every protocol: `inputTokens`
 * includes cached (cache-read) and cache-write tokens, `outputTokens` includes reasoning tokens. The
 * cached count is `cachedInputTokens`, the cache-write count `cacheCreationInputTokens`; images (set by the
 * image handler) and audio seconds (a transcription's duration, when the vendor reports it) are priced too.
 */
export interface PricedUsage {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  cacheCreationInputTokens?: number;
  reasoningTokens?: number;
  /** Images generated (priced per image). */
  images?: number;
  /** Seconds of audio the vendor processed (priced per `audio_second`). */
  audioSeconds?: number;
}

const PER_TOKEN = 1 / 1_000_000;

/**
 * What a request cost in USD under `price`: each kind of token at its own rate (cached and cache-write
 * tokens are taken out of the input count and priced at their rates, reasoning tokens out of the output
 * count), plus images and audio seconds. Undefined when the model has no price.
 */
export function getCost(usage: PricedUsage, price: ModelPrice | undefined): number | undefined {
  if (!price) return undefined;
  const input = count(usage.inputTokens);
  const output = count(usage.outputTokens);
  const cached = Math.min(input, count(usage.cachedInputTokens));
  const written = Math.min(input - cached, count(usage.cacheCreationInputTokens));
  const reasoning = Math.min(output, count(usage.reasoningTokens));
  const tokens =
    (input - cached - written) * price.input +
    cached * (price.cachedInput ?? price.input) +
    written * (price.cacheWrite ?? price.input) +
    (output - reasoning) * price.output +
    reasoning * (price.reasoning ?? price.output);
  return tokens * PER_TOKEN + count(usage.images) * (price.image ?? 0) + count(usage.audioSeconds) * (price.audioSecond ?? 0);
}

/** A count usable in a sum: absent, negative or not finite is 0. */
function count(value: number | undefined): number {
  return typeof value === 'number' && value > 0 && Number.isFinite(value) ? value : 0;
}
