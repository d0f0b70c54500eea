import type { RoutingPolicy, TargetEntry } from '../config/types.ts';
import type { LimitStore, TargetStatus } from '../limits/store.ts';

/** Cooldowns of targets, shared through the limit store (so every process skips a failing target). */
export interface TargetHealth {
  /** `ready`, `cooling` (skip it) or `probe` (this request alone may try it once after its cooldown). */
  check(target: TargetEntry, policy: RoutingPolicy): Promise<TargetStatus>;
  /** Records a transient failure; the `cooldownAfter`-th in a row starts a cooldown of `cooldownMs`. */
  reportFailure(target: TargetEntry, policy: RoutingPolicy): Promise<void>;
  /** Records a success of a target that had failures (or was probed): its record is cleared. */
  reportSuccess(target: TargetEntry): void;
}

const READY: TargetStatus = { state: 'ready', failures: 0, retryInMs: 0 };

/**
 * Target health over a store. A target is one vendor + upstream model, whichever models list it. While
 * the store is unreachable every target counts as ready: routing never blocks on it.
 */
export function createTargetHealth(store: LimitStore): TargetHealth {
  return {
    async check(target, policy) {
      try {
        return await store.checkTarget(getTargetId(target), policy.cooldownMs);
      } catch {
        return READY;
      }
    },
    async reportFailure(target, policy) {
      await store.failTarget(getTargetId(target), policy.cooldownAfter, policy.cooldownMs).catch(() => undefined);
    },
    reportSuccess(target) {
      store.clearTarget(getTargetId(target)).catch(() => undefined);
    },
  };
}

/** The id a target's health is kept under: `vendor/upstream`. */
export function getTargetId(target: TargetEntry): string {
  return `${target.vendor}/${target.upstream}`;
}
