import { describe, expect, it } from 'vitest';
import { KEEP_AFTER_MS } from '../../src/limits/budget-period.ts';
import { createReserveRejection } from '../../src/limits/rejections.ts';

const HEADERS = { 'x-gateway-budget-remaining-usd': '0.000000' };
const BUDGET = { period: 'd2099-01-01', limitNano: 2_000_000_000, ttlMs: KEEP_AFTER_MS + 90_500 };

describe('the 429 of a refused reservation', () => {
  it('names what is left of the budget and when it renews, and asks the client to wait until then', () => {
    const error = createReserveRejection({ verdict: 'budget', spentNano: 1_500_000_000 }, BUDGET, HEADERS, 'per minute');
    expect(error.status).toBe(429);
    expect(error.code).toBe('budget_exceeded');
    expect(error.retryAfter).toBe(91);
    expect(error.headers).toBe(HEADERS);
    expect(error.message).toBe(
      'Budget exceeded: this key has $0.500000 of its $2.000000 budget left this period, less than this request may cost. The budget renews in 1m31s.',
    );
  });

  it('counts a budget with nothing spent as wholly left, and waits at least a second when the period is ending', () => {
    const error = createReserveRejection({ verdict: 'budget' }, { ...BUDGET, ttlMs: KEEP_AFTER_MS - 5_000 }, {}, 'per minute');
    expect(error.retryAfter).toBe(1);
    expect(error.message).toContain('has $2.000000 of its $2.000000 budget left');
    expect(error.message).toContain('renews in 1s');
  });

  it("is the token limit's own refusal when the token window is spent", () => {
    const tokens = { limit: 1000, remaining: 0, resetSeconds: 12.2 };
    const error = createReserveRejection({ verdict: 'tpm', tokens } as never, BUDGET, HEADERS, 'per minute');
    expect(error.code).toBe('rate_limit_exceeded');
    expect(error.retryAfter).toBe(13);
    expect(error.message).toMatch(/^Rate limit reached for tokens: limit 1000 per minute\. Try again in /);
  });
});
