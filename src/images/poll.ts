import { setTimeout as sleep } from 'node:timers/promises';
import { GatewayError } from '../errors.ts';

/** How often and how long to poll an asynchronous vendor task. */
export interface PollSchedule {
  /** Wait before the first check, then growing by `factor` up to `maxDelayMs`. */
  firstDelayMs: number;
  factor: number;
  maxDelayMs: number;
  /** Epoch ms after which no further check starts. */
  deadline: number;
  signal: AbortSignal;
}

/**
 * Calls `check` after growing waits until it answers something other than undefined, and answers that.
 * Throws `onTimeout()` when the deadline comes first, and a 499 when `signal` aborts.
 */
export async function pollWithBackoff<T>(
  check: () => Promise<T | undefined>,
  schedule: PollSchedule,
  onTimeout: () => GatewayError,
): Promise<T> {
  let delay = schedule.firstDelayMs;
  for (;;) {
    const left = schedule.deadline - Date.now();
    if (left <= 0) throw onTimeout();
    try {
      await sleep(Math.min(delay, left), undefined, { signal: schedule.signal });
    } catch {
      throw new GatewayError(499, 'client_closed_request', 'The request was cancelled while waiting for the vendor.');
    }
    const result = await check();
    if (result !== undefined) return result;
    delay = Math.min(delay * schedule.factor, schedule.maxDelayMs);
  }
}
