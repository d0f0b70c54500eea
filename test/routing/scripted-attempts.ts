import type { RoutingPolicy, TargetEntry } from '../../src/config/types.ts';
import { GatewayError } from '../../src/errors.ts';
import { runAttempts, type RunAttemptsOptions } from '../../src/routing/run-attempts.ts';
import type { AttemptContext } from '../../src/routing/run-one-attempt.ts';

/** One scripted answer of a target. */
export type Behaviour = (context: AttemptContext) => Promise<string>;

/** A routing policy with nothing retried or cooled unless `extra` says so. */
export function makePolicy(extra: Partial<RoutingPolicy> = {}): RoutingPolicy {
  return { retries: 0, fallbackOn: ['429', '5xx', 'timeout', 'connect'], cooldownAfter: 0, cooldownMs: 0, ...extra };
}

/**
 * Runs attempts against scripted targets (keyed by `vendor/upstream`, each answering its behaviours in
 * turn, the last one forever), recording each call as `vendor/upstream#number` and each backoff wait.
 */
export function createScriptedRun(script: Record<string, Behaviour[]>) {
  const calls: string[] = [];
  const sleeps: number[] = [];
  const run = (options: Partial<RunAttemptsOptions<string>> & { targets: readonly TargetEntry[] }) =>
    runAttempts<string>({
      policy: makePolicy(),
      signal: new AbortController().signal,
      deadline: Date.now() + 10_000,
      random: () => 0.5,
      backoff: { baseMs: 100, maxMs: 1000 },
      sleep: async (ms) => void sleeps.push(ms),
      attempt: (context) => {
        const id = `${context.target.vendor}/${context.target.upstream}`;
        calls.push(`${id}#${context.number}${context.probe ? ' probe' : ''}`);
        const behaviours = script[id];
        const next = behaviours.length > 1 ? behaviours.shift()! : behaviours[0];
        return next(context);
      },
      ...options,
    });
  return { run, calls, sleeps };
}

/** Commits and answers `text`. */
export const ok = (text: string): Behaviour => async (context) => {
  context.commit();
  return text;
};

/** Fails with a vendor status (and its Retry-After). */
export const fail = (status: number, retryAfter?: number): Behaviour => async () => {
  throw new GatewayError(status, 'upstream_error', `vendor said ${status}`, { retryAfter });
};
