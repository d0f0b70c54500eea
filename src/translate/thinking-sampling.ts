/**
 * The sampling limits of thinking as the protocols carrying Claude's thinking enforce them (the messages
 * protocol, Converse for Claude): with thinking on, the tool choice may only be auto or none, and top_p
 * must be unset or at least 0.95. What breaks them goes through the field policy: left out and named in
 * `x-gateway-dropped-fields`, or a 400 naming the client's field under `strict`.
 */
import type { CanonicalRequest } from './canonical.ts';
import type { FieldPolicy } from './field-policy.ts';

/** The lowest top_p a thinking request may carry. */
const MIN_THINKING_TOP_P = 0.95;

/** What to leave out of a thinking request: a forced tool choice (sent as auto instead) and a low top_p. */
export interface ThinkingConflicts {
  toolChoice: boolean;
  topP: boolean;
}

/** The request's conflicts with thinking, each reported to `policy` (which throws under `strict`). */
export function getThinkingConflicts(request: CanonicalRequest, policy: FieldPolicy): ThinkingConflicts {
  const toolChoice = request.toolChoice?.type === 'required' || request.toolChoice?.type === 'tool';
  const topP = request.topP !== undefined && request.topP < MIN_THINKING_TOP_P;
  if (toolChoice) policy.drop('toolChoice', 'the vendor forces no tool call with reasoning on');
  if (topP) policy.drop('topP', `the vendor takes no top_p under ${MIN_THINKING_TOP_P} with reasoning on`);
  return { toolChoice, topP };
}
