/** The generate-content protocol's `generationConfig.thinkingConfig`, from the canonical reasoning request. */
import type { CanonicalRequest } from '../../../translate/canonical.ts';
import type { EncodeOptions } from '../../../translate/adapter.ts';
import { getReasoningBudget } from '../../../translate/reasoning-budget.ts';

/**
 * Sets `thinkingConfig` on a generation config: reasoning off is a zero budget; on, the client's budget
 * (-1, the model's own choice, included), else its effort's budget from the model's table; thoughts come
 * back unless the client asked for none (`include: false`).
 */
export function writeThinkingConfig(config: Record<string, unknown>, request: CanonicalRequest, options: EncodeOptions): void {
  const { reasoning } = request;
  if (!reasoning) return;
  if (!reasoning.enabled) {
    config.thinkingConfig = { thinkingBudget: 0 };
    return;
  }
  const budget = reasoning.budgetTokens === -1 ? -1 : reasoning.budgetTokens === undefined && !reasoning.effort ? -1 : getReasoningBudget(reasoning, options.reasoningBudgets);
  config.thinkingConfig = { thinkingBudget: budget, includeThoughts: reasoning.include !== false };
}
