/** The messages protocol's `thinking` request field, from the canonical reasoning request. */
import type { CanonicalRequest } from '../../../translate/canonical.ts';
import type { EncodeOptions } from '../../../translate/adapter.ts';
import { fitThinkingBudget, getReasoningBudget } from '../../../translate/reasoning-budget.ts';
import { lacksSignedReasoning } from '../../../translate/reasoning-parts.ts';
import type { FieldPolicy } from '../../../translate/field-policy.ts';
import { getThinkingConflicts } from '../../../translate/thinking-sampling.ts';

/**
 * Sets `thinking` (and fits `max_tokens` around its budget: reasoning-budget.ts) on a messages body.
 * The protocol rejects sampling changes with thinking on, so temperature and top_k go through the
 * field policy (a forced tool choice and a low top_p too: {@link fitThinkingSampling}, once the tool choice is written). When the conversation's last assistant turn made tool calls without signed thinking
 * (it came from another target and its signatures were stripped), the vendor would reject the turn:
 * thinking is left off for it and `reasoning` reported in `x-gateway-dropped-fields`.
 */
export function writeThinking(body: Record<string, unknown>, request: CanonicalRequest, options: EncodeOptions): void {
  const { reasoning } = request;
  if (!reasoning?.enabled) return;
  const { policy } = options;
  if (lacksSignedReasoning(request)) {
    policy.ignore('reasoning');
    return;
  }
  const field = options.fieldNames?.reasoning ?? 'thinking.budget_tokens';
  const fitted = fitThinkingBudget(getReasoningBudget(reasoning, options.reasoningBudgets), Number(body.max_tokens), policy, field);
  body.max_tokens = fitted.maxTokens;
  body.thinking = { type: 'enabled', budget_tokens: fitted.budget };
  if (body.temperature !== undefined) {
    policy.drop('temperature', 'the vendor takes no temperature with reasoning on');
    delete body.temperature;
  }
  if (body.top_k !== undefined) {
    policy.drop('topK', 'the vendor takes no top_k with reasoning on');
    delete body.top_k;
  }
}

/**
 * With thinking on (`body.thinking` set), a forced `tool_choice` becomes `auto` and a `top_p` under 0.95
 * is left out, each through the field policy (thinking-sampling.ts), as the vendor refuses them.
 */
export function fitThinkingSampling(body: Record<string, any>, request: CanonicalRequest, policy: FieldPolicy): void {
  if (body.thinking === undefined) return;
  const conflicts = getThinkingConflicts(request, policy);
  if (conflicts.toolChoice) {
    const { name: _name, ...rest } = body.tool_choice;
    body.tool_choice = { ...rest, type: 'auto' };
  }
  if (conflicts.topP) delete body.top_p;
}
