/** Converse's reasoning request: Claude's `thinking` in `additionalModelRequestFields`. */
import type { EncodeOptions } from '../../translate/adapter.ts';
import type { CanonicalRequest } from '../../translate/canonical.ts';
import { fitThinkingBudget, getReasoningBudget } from '../../translate/reasoning-budget.ts';
import { lacksSignedReasoning } from '../../translate/reasoning-parts.ts';

/** Model ids (and inference-profile ARNs) of Anthropic's Claude on Bedrock, the models that take `thinking`. */
const CLAUDE_ID = /(^|[.:/])anthropic\.claude/;

/**
 * Sets `additionalModelRequestFields.thinking = {type: "enabled", budget_tokens}` on a Converse body for
 * a Claude model, the budget fitted below `inferenceConfig.maxTokens` (reasoning-budget.ts; the model's
 * default output limit when the client gave none), and drops `temperature`, which Claude refuses with
 * thinking on. Other models (and application inference profiles, whose ARN hides the model) have no
 * reasoning field the gateway knows: `reasoning` goes through the field policy. As on the messages
 * protocol, a last assistant tool turn without signed reasoning (it came from another target) gets
 * thinking left off, reported in `x-gateway-dropped-fields`.
 */
export function writeConverseThinking(body: Record<string, any>, request: CanonicalRequest, options: EncodeOptions): void {
  const { reasoning } = request;
  if (!reasoning?.enabled) return;
  const { policy } = options;
  if (!CLAUDE_ID.test(options.model)) return policy.drop('reasoning', 'the vendor takes no reasoning settings for this model');
  if (lacksSignedReasoning(request)) return policy.ignore('reasoning');
  const inference: Record<string, unknown> = body.inferenceConfig ?? {};
  const field = options.fieldNames?.reasoning ?? 'reasoning';
  const fitted = fitThinkingBudget(getReasoningBudget(reasoning, options.reasoningBudgets), Number(inference.maxTokens ?? options.defaultMaxTokens), policy, field);
  body.inferenceConfig = { ...inference, maxTokens: fitted.maxTokens };
  body.additionalModelRequestFields = { thinking: { type: 'enabled', budget_tokens: fitted.budget } };
  if (inference.temperature !== undefined) {
    policy.drop('temperature', 'the vendor takes no temperature with reasoning on');
    delete body.inferenceConfig.temperature;
  }
}
