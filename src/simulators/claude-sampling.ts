/**
 * Claude's refusals of sampling settings with thinking on, as its vendor documents them (the messages
 * API, and Converse for Claude): the tool choice may only be auto or none, and top_p must be unset or at
 * least 0.95. The messages are the vendor's.
 */
import { isObject } from './text.ts';

/** The refusal of a request with `thinking` on that forces a tool call or sets a low top_p, else undefined. */
export function findClaudeSamplingProblem(thinking: unknown, forcedTool: boolean, topP: unknown): string | undefined {
  if (!isObject(thinking) || thinking.type !== 'enabled') return undefined;
  if (forcedTool) return 'Thinking may not be enabled when tool_choice forces tool use.';
  if (typeof topP === 'number' && topP < 0.95) return '`top_p` must be greater than or equal to 0.95 or unset when thinking is enabled';
  return undefined;
}
