import type { AttemptFailure } from './classify-failure.ts';

/** Exponential backoff: the n-th retry waits a random time in [0, min(maxMs, baseMs * 2^(n-1))). */
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
}

/** Backoff used when a caller gives none. */
export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 200, maxMs: 5000 };

/** What {@link getRetryDelay} needs besides the failure. */
export interface RetryDelayInput {
  backoff: BackoffOptions;
  random: () => number;
  /** Epoch ms now and the request's deadline. */
  now: number;
  deadline: number;
}

/**
 * Milliseconds to wait before retry number `retry` (1 = the first retry): exponential backoff with full
 * jitter, never shorter than the vendor's `Retry-After`. Undefined when that wait would reach the
 * deadline: the caller then moves on to the next target at once instead of waiting in vain.
 */
export function getRetryDelay(retry: number, failure: AttemptFailure, input: RetryDelayInput): number | undefined {
  const { backoff } = input;
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, retry - 1));
  const delay = Math.max(Math.floor(input.random() * ceiling), failure.retryAfterMs ?? 0);
  return input.now + delay >= input.deadline ? undefined : delay;
}
