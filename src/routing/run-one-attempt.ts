import type { TargetEntry } from '../config/types.ts';

/** What an attempt function gets: its target, its signal and the way to say the client got bytes. */
export interface AttemptContext {
  readonly target: TargetEntry;
  /** 1-based number of this vendor call within the request (retries and fallbacks included). */
  readonly number: number;
  /** 0 for a target's first try, then 1, 2, … for its retries. */
  readonly retry: number;
  /** This attempt probes a target whose cooldown is over. */
  readonly probe: boolean;
  /** Aborted when the client leaves, the attempt times out or the attempt is given up. Pass it to the vendor call. */
  readonly signal: AbortSignal;
  /**
   * Call right before the first response byte goes to the client. From then on there is no retry, no
   * fallback and no attempt timeout. Throws (the abort reason) if the attempt was already given up, so a
   * late attempt can never write to the client.
   */
  commit(): void;
}

/** Thrown (as the attempt signal's reason) when an attempt runs out of time before committing. */
export class AttemptTimeoutError extends Error {
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`The attempt got no answer within ${timeoutMs} ms.`);
    this.name = 'AttemptTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/** How one attempt ended. */
export type AttemptOutcome<R> =
  | { ok: true; value: R }
  | { ok: false; error: unknown; committed: boolean; timedOut: boolean };

/**
 * Runs one attempt under its own AbortController, chained to the request's signal and aborted after
 * `budgetMs` unless committed by then. An attempt that ignores its signal is abandoned when aborted (its
 * later result is dropped), so a request never hangs on it.
 */
export async function runOneAttempt<R>(
  run: (context: AttemptContext) => Promise<R>,
  init: { target: TargetEntry; number: number; retry: number; probe: boolean },
  parent: AbortSignal,
  budgetMs: number,
): Promise<AttemptOutcome<R>> {
  const controller = new AbortController();
  const { signal } = controller;
  const onParentAbort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', onParentAbort, { once: true });
  const abandoned = new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  abandoned.catch(() => undefined);

  let committed = false;
  let timedOut = false;
  const timer = Number.isFinite(budgetMs)
    ? setTimeout(() => {
        timedOut = true;
        controller.abort(new AttemptTimeoutError(budgetMs));
      }, budgetMs)
    : undefined;
  const context: AttemptContext = {
    ...init,
    signal,
    commit() {
      if (signal.aborted) throw signal.reason;
      committed = true;
      clearTimeout(timer);
    },
  };

  let running: Promise<R>;
  try {
    running = run(context);
  } catch (error) {
    running = Promise.reject(error);
  }
  running.catch(() => undefined);
  try {
    return { ok: true, value: await Promise.race([running, abandoned]) };
  } catch (error) {
    parent.removeEventListener('abort', onParentAbort);
    if (!signal.aborted) controller.abort(new Error('The attempt was given up.'));
    return { ok: false, error, committed, timedOut };
  } finally {
    clearTimeout(timer);
  }
}
