/** Converse's reasoning request: Claude's `thinking` in `additionalModelRequestFields`. */
import type { EncodeOptions } from '../../translate/adapter.ts';
import type { CanonicalRequest } from '../../translate/canonical.ts';
import { fitThinkingBudget, getReasoningBudget, getReasoningEffort } from '../../translate/reasoning-budget.ts';
import { lacksSignedReasoning } from '../../translate/reasoning-parts.ts';
import { getThinkingConflicts } from '../../translate/thinking-sampling.ts';
import type { FieldPolicy } from '../../translate/field-policy.ts';

/**
 * The default when YAML declares no `request.reasoning`: model ids (and inference-profile ARNs) of
 * Claude on Bedrock take `thinking`.
 */
const CLAUDE_ID = /(^|[.:/])anthropic\.claude/;

/** The reasoning request shape of a model: the YAML's (`request.reasoning`), else guessed from its id. */
export function getReasoningShape(options: EncodeOptions): string {
  return options.reasoningShape ?? (CLAUDE_ID.test(options.model) ? 'claude-thinking' : 'none');
}

/**
 * Sets a Converse body's reasoning request by the model's reasoning shape ({@link getReasoningShape}):
 * `claude-thinking` is `additionalModelRequestFields.thinking = {type: "enabled", budget_tokens}`, the
 * budget fitted below `inferenceConfig.maxTokens` (reasoning-budget.ts; the model's default output limit
 * when the client gave none), `temperature` dropped (Claude refuses it with thinking on); as on the
 * messages protocol, a last assistant tool turn without signed reasoning (it came from another target)
 * gets thinking left off, reported in `x-gateway-dropped-fields`. `nova-reasoning` is Nova 2's
 * `additionalModelRequestFields.reasoningConfig = {type: "enabled", maxReasoningEffort}` (the client's
 * effort, or the one its budget maps to). `none` (by default any id not naming Claude, such as an
 * undeclared application inference profile ARN): `reasoning` goes through the field policy.
 */
export function writeConverseThinking(body: Record<string, any>, request: CanonicalRequest, options: EncodeOptions): void {
  const { reasoning } = request;
  if (!reasoning?.enabled) return;
  const { policy } = options;
  const shape = getReasoningShape(options);
  if (shape === 'nova-reasoning') {
    body.additionalModelRequestFields = { reasoningConfig: { type: 'enabled', maxReasoningEffort: getReasoningEffort(reasoning, options.reasoningBudgets) } };
    return;
  }
  if (shape !== 'claude-thinking') return policy.drop('reasoning', 'the vendor takes no reasoning settings for this model');
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

/**
 * With Claude's thinking on (`additionalModelRequestFields.thinking` set), a forced `toolConfig.toolChoice`
 * becomes `auto` and an `inferenceConfig.topP` under 0.95 is left out, each through the field policy
 * (thinking-sampling.ts), as Claude refuses them.
 */
export function fitConverseThinkingSampling(body: Record<string, any>, request: CanonicalRequest, policy: FieldPolicy): void {
  if (body.additionalModelRequestFields?.thinking === undefined) return;
  const conflicts = getThinkingConflicts(request, policy);
  if (conflicts.toolChoice && body.toolConfig) body.toolConfig.toolChoice = { auto: {} };
  if (conflicts.topP) delete body.inferenceConfig.topP;
}
