/** How a primary restarts workers that die: a growing delay, and a limit on failures close together. */
export interface RestartPolicy {
  /** Failures within {@link windowMs} that make the primary give up (a crash loop). */
  maxFailures: number;
  windowMs: number;
  /** The delay before the restart after the first failure of a window; it doubles with each further one. */
  firstDelayMs: number;
  maxDelayMs: number;
}

/** The decision after a worker died: restart it after `delayMs`, or give up (`failures` within the window). */
export type RestartDecision = { restart: true; delayMs: number } | { restart: false; failures: number };

/**
 * The default policy for `workers` processes: every worker failing once and then four more failures within
 * a minute is a crash loop, not bad luck; restarts wait 250 ms, then twice as long each time, at most 10 s.
 */
export function defineRestartPolicy(workers: number): RestartPolicy {
  return { maxFailures: workers + 4, windowMs: 60_000, firstDelayMs: 250, maxDelayMs: 10_000 };
}

/**
 * Counts worker failures over a sliding window and answers, for each, how long to wait before the restart,
 * or that the failures are a crash loop to give up on (restarting it would only burn CPU and flood the log).
 */
export function createRestartCounter(policy: RestartPolicy, now: () => number = Date.now): () => RestartDecision {
  let failures: number[] = [];
  return () => {
    const at = now();
    failures = [...failures.filter((time) => at - time < policy.windowMs), at];
    if (failures.length >= policy.maxFailures) return { restart: false, failures: failures.length };
    return { restart: true, delayMs: Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (failures.length - 1)) };
  };
}
