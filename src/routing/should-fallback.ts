import type { RoutingPolicy } from '../config/types.ts';
import type { AttemptFailure } from './classify-failure.ts';

/**
 * Whether a failure lets the request go on to another attempt, per the conditions named in YAML
 * (`fallbackOn`): `timeout`, `connect`, `content_policy`, `context_length`, a status (`429`, `503`) or a
 * status class (`5xx`, `4xx`). A client that left (`aborted`) or an `other` failure never falls back.
 */
export function shouldFallback(failure: AttemptFailure, policy: Pick<RoutingPolicy, 'fallbackOn'>): boolean {
  for (const condition of policy.fallbackOn) if (matchesCondition(failure, condition)) return true;
  return false;
}

/**
 * Whether a failure is transient (429, 5xx, timeout, connection): such a failure may be retried on the
 * same target and counts towards its cooldown. Content-policy and context-length refusals are not: they
 * would fail again on the same target, so they only fall back to the next one.
 */
export function isTransient(failure: AttemptFailure): boolean {
  if (failure.kind === 'timeout' || failure.kind === 'connect') return true;
  if (failure.kind !== 'status' || failure.status === undefined) return false;
  return failure.status === 429 || failure.status >= 500;
}

function matchesCondition(failure: AttemptFailure, condition: string): boolean {
  switch (condition) {
    case 'timeout':
    case 'connect':
    case 'content_policy':
    case 'context_length':
      return failure.kind === condition;
  }
  if (failure.kind !== 'status' || failure.status === undefined || condition.length !== 3) return false;
  if (condition.endsWith('xx')) return Math.floor(failure.status / 100) === Number(condition[0]);
  return failure.status === Number(condition);
}
