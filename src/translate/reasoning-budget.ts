/**
 * Reasoning effort <-> budget. Styles that ask by effort (chat-completions `reasoning_effort`, responses
 * `reasoning.effort`) and protocols that take a token budget (messages `thinking.budget_tokens`,
 * generate-content `thinkingConfig.thinkingBudget`) meet through the model's table `chat.reasoning`
 * (default {@link DEFAULT_REASONING_BUDGETS}); a budget becomes the smallest effort whose budget covers it.
 */
import type { ReasoningBudgets } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import type { ReasoningEffort, ReasoningRequest } from './canonical.ts';
import type { FieldPolicy } from './field-policy.ts';
import { createFieldError } from './read-field.ts';
import { readOwn } from '../lib/read-own.ts';

/** The budgets of a model without `chat.reasoning`. */
export const DEFAULT_REASONING_BUDGETS: ReasoningBudgets = { low: 1024, medium: 4096, high: 16384 };

/** The messages protocol's smallest thinking budget. */
export const MIN_THINKING_BUDGET = 1024;

const EFFORTS: Readonly<Record<string, ReasoningEffort | 'none'>> = {
  none: 'none', minimal: 'low', low: 'low', medium: 'medium', high: 'high', xhigh: 'high',
};

/** Reads an effort value (`none` switches reasoning off); absent: undefined; else a 400 naming `field`. */
export function readReasoningEffort(value: unknown, field: string, include?: boolean): ReasoningRequest | undefined {
  if (value === undefined || value === null) return undefined;
  const effort = typeof value === 'string' ? readOwn(EFFORTS, value) : undefined;
  if (effort === undefined) throw createFieldError(field, `one of ${Object.keys(EFFORTS).join(', ')}`);
  if (effort === 'none') return { enabled: false };
  return { enabled: true, effort, ...(include === undefined ? {} : { include }) };
}

/** The token budget of a reasoning request: its own, else its effort's (medium when it names neither). */
export function getReasoningBudget(reasoning: ReasoningRequest, budgets: ReasoningBudgets = DEFAULT_REASONING_BUDGETS): number {
  if (reasoning.budgetTokens !== undefined && reasoning.budgetTokens >= 0) return reasoning.budgetTokens;
  return budgets[reasoning.effort ?? 'medium'];
}

/** The effort of a reasoning request: its own, else the smallest level whose budget covers its budget. */
export function getReasoningEffort(reasoning: ReasoningRequest, budgets: ReasoningBudgets = DEFAULT_REASONING_BUDGETS): ReasoningEffort {
  if (reasoning.effort) return reasoning.effort;
  const budget = reasoning.budgetTokens;
  if (budget === undefined || budget < 0) return 'medium';
  if (budget <= budgets.low) return 'low';
  return budget <= budgets.medium ? 'medium' : 'high';
}

/**
 * A thinking budget the messages protocol takes (at least 1024, below `max_tokens`): unchanged, or,
 * under a strict policy, a 400 `parameter_out_of_range` naming the client's `field`; otherwise clamped
 * (raised to 1024; lowered below `max_tokens`, or `max_tokens` raised above 1024 when it is not).
 */
export function fitThinkingBudget(budget: number, maxTokens: number, policy: FieldPolicy, field: string): { budget: number; maxTokens: number } {
  if (budget >= MIN_THINKING_BUDGET && budget < maxTokens) return { budget, maxTokens };
  if (policy.strict) {
    const why = budget < MIN_THINKING_BUDGET ? `at least ${MIN_THINKING_BUDGET}` : `below the output-token limit (${maxTokens})`;
    throw new GatewayError(400, 'parameter_out_of_range', `The field '${field}' must give a reasoning budget ${why} for this model; got ${budget}.`, { param: field });
  }
  const raised = Math.max(MIN_THINKING_BUDGET, budget);
  if (raised < maxTokens) return { budget: raised, maxTokens };
  if (maxTokens > MIN_THINKING_BUDGET) return { budget: maxTokens - 1, maxTokens };
  return { budget: MIN_THINKING_BUDGET, maxTokens: MIN_THINKING_BUDGET + maxTokens };
}
