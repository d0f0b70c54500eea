import { GatewayError } from '../errors.ts';
import { formatUsd, KEEP_AFTER_MS } from './budget-period.ts';
import { formatDuration } from './rate-headers.ts';
import type { AdmitResult, BudgetRequest, ReserveResult } from './store.ts';

/** The 429 of a refused reservation: the token window is spent, or the budget cannot cover the request. */
export function createReserveRejection(
  result: ReserveResult,
  budget: BudgetRequest | undefined,
  headers: Record<string, string>,
  windowLabel: string,
): GatewayError {
  if (result.verdict === 'tpm') return createRejection({ verdict: 'tpm', tokens: result.tokens }, headers, windowLabel);
  const seconds = Math.max(1, Math.ceil((budget!.ttlMs - KEEP_AFTER_MS) / 1000));
  const left = formatUsd(budget!.limitNano - (result.spentNano ?? 0));
  const limit = formatUsd(budget!.limitNano);
  const message = `Budget exceeded: this key has $${left} of its $${limit} budget left this period, less than this request may cost. The budget renews in ${formatDuration(seconds * 1000)}.`;
  return new GatewayError(429, 'budget_exceeded', message, { retryAfter: seconds, headers });
}

/** The 429 of a refused request, in the words of the limit that refused it. */
export function createRejection(result: AdmitResult, headers: Record<string, string>, windowLabel: string): GatewayError {
  let message: string;
  let retryAfter = 1;
  const window = result.verdict === 'rpm' ? result.requests : result.verdict === 'tpm' ? result.tokens : undefined;
  if (window) {
    const unit = result.verdict === 'rpm' ? 'requests' : 'tokens';
    retryAfter = Math.max(1, Math.ceil(window.resetSeconds));
    message = `Rate limit reached for ${unit}: limit ${window.limit} ${windowLabel}. Try again in ${formatDuration(window.resetSeconds * 1000)}.`;
  } else {
    message = `Too many concurrent requests: limit ${result.concurrency?.limit}. Try again when one of them has finished.`;
  }
  return new GatewayError(429, 'rate_limit_exceeded', message, { retryAfter, headers });
}
