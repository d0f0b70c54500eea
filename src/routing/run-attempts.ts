import { setTimeout as delay } from 'node:timers/promises';
import type { RoutingPolicy, TargetEntry } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import { DEFAULT_BACKOFF, getRetryDelay, type BackoffOptions } from './backoff.ts';
import { classifyFailure, type AttemptFailure } from './classify-failure.ts';
import { runOneAttempt, type AttemptContext } from './run-one-attempt.ts';
import { isTransient, shouldFallback } from './should-fallback.ts';
import type { TargetHealth } from './target-health.ts';

/** What {@link runAttempts} needs. */
export interface RunAttemptsOptions<R> {
  /** Targets in the order to try them (see `orderTargets`). */
  targets: readonly TargetEntry[];
  policy: RoutingPolicy;
  /** The request's one signal: aborted when the client leaves. */
  signal: AbortSignal;
  /** Epoch ms after which no attempt starts; an attempt that has not committed by then is aborted. */
  deadline: number;
  /** Makes one vendor call and, once it answers well, writes the response (calling `commit()` first). */
  attempt(context: AttemptContext): Promise<R>;
  /** Target cooldowns; without it no target is ever skipped. */
  health?: TargetHealth;
  /** Told of each target skipped because it is cooling down (for the usage event). */
  onCooling?(target: TargetEntry): void;
  /** Turns what an attempt threw into a failure (default {@link classifyFailure}). */
  classify?(error: unknown): AttemptFailure;
  backoff?: BackoffOptions;
  random?: () => number;
  now?: () => number;
  /** Waits between retries; rejects when the signal aborts (tests inject a recorder). */
  sleep?(ms: number, signal: AbortSignal): Promise<unknown>;
}

const TIMEOUT: AttemptFailure = { kind: 'timeout' };
const sleepFor = (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal });

/**
 * Runs attempts in order under one deadline and one AbortSignal. A failed attempt whose failure is named
 * in `policy.fallbackOn` is retried on the same target (transient failures only, up to `policy.retries`
 * times, with backoff honouring `Retry-After`), then the next target is tried; any other failure ends the
 * request with that attempt's error. Once an attempt has committed (the client received bytes) nothing
 * is retried: its error is thrown as is. Targets in cooldown are skipped; a target whose cooldown is over
 * is probed by one request with a single attempt. When every attempt failed, the last error is thrown (a
 * timeout as a 504); when every target was cooling, a 503 with `retryAfter`.
 */
export async function runAttempts<R>(options: RunAttemptsOptions<R>): Promise<R> {
  const { targets, policy, signal, deadline, health } = options;
  const now = options.now ?? Date.now;
  const classify = options.classify ?? classifyFailure;
  const sleep = options.sleep ?? sleepFor;
  const tracksHealth = health !== undefined && policy.cooldownAfter > 0;
  let number = 0;
  let last: { error: unknown; timedOut: boolean } | undefined;
  let coolingMs = Infinity;

  for (const target of targets) {
    let failures = 0;
    let probe = false;
    if (tracksHealth) {
      const status = await health.check(target, policy);
      if (status.state === 'cooling') {
        coolingMs = Math.min(coolingMs, status.retryInMs);
        options.onCooling?.(target);
        continue;
      }
      failures = status.failures;
      probe = status.state === 'probe';
    }
    const tries = probe ? 1 : 1 + Math.max(0, policy.retries);
    for (let retry = 0; retry < tries; retry++) {
      if (signal.aborted) throw getAbortError(signal);
      const leftMs = deadline - now();
      const budgetMs = Math.min(policy.attemptTimeoutMs ?? Infinity, leftMs);
      if (budgetMs <= 0) throw last ? getFinalError(last) : getDeadlineError();
      number += 1;
      const outcome = await runOneAttempt(options.attempt, { target, number, retry, probe }, signal, budgetMs);
      if (outcome.ok) {
        if (tracksHealth && (failures > 0 || probe)) health.reportSuccess(target);
        return outcome.value;
      }
      if (signal.aborted) throw getAbortError(signal);
      const failure = outcome.timedOut ? TIMEOUT : classify(outcome.error);
      if (tracksHealth && isTransient(failure)) await health.reportFailure(target, policy);
      last = outcome;
      if (outcome.committed || !shouldFallback(failure, policy)) throw getFinalError(outcome);
      // Timed out on the deadline's own budget: the deadline is over, whatever a clock read a moment early says
      // (a timer may fire before Date.now() reaches its end: libuv counts from the loop's cached time).
      if (outcome.timedOut && leftMs <= budgetMs) throw getFinalError(outcome);
      if (!isTransient(failure) || retry + 1 >= tries) break;
      const wait = getRetryDelay(retry + 1, failure, {
        backoff: options.backoff ?? DEFAULT_BACKOFF,
        random: options.random ?? Math.random,
        now: now(),
        deadline,
      });
      if (wait === undefined) break;
      await sleep(wait, signal).catch(() => {
        throw getAbortError(signal);
      });
    }
  }
  if (last) throw getFinalError(last);
  const retryAfter = Number.isFinite(coolingMs) ? Math.max(1, Math.ceil(coolingMs / 1000)) : undefined;
  const message = targets.length === 0
    ? 'The model has no target to serve it.'
    : 'Every target of this model is cooling down after repeated failures; try again later.';
  throw new GatewayError(503, 'no_target_available', message, { retryAfter });
}

function getFinalError(last: { error: unknown; timedOut: boolean }): unknown {
  if (!last.timedOut) return last.error;
  return new GatewayError(504, 'upstream_timeout', 'The vendor did not answer in time.', { cause: last.error });
}

function getDeadlineError(): GatewayError {
  return new GatewayError(504, 'deadline_exceeded', 'The request ran out of time before a vendor could be tried.');
}

/** The request's abort reason when it is a GatewayError (e.g. a shutdown), else a 499 caused by it. */
function getAbortError(signal: AbortSignal): GatewayError {
  if (signal.reason instanceof GatewayError) return signal.reason;
  return new GatewayError(499, 'client_closed_request', 'The client closed the request.', { cause: signal.reason });
}
