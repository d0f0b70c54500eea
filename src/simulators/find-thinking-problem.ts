/**
 * Claude's extended-thinking rules, as its API documents them and whichever API serves it: with
 * `thinking: {type: "enabled", budget_tokens}` the budget is at least 1024 and below the output-token
 * limit, and when the last assistant turn made tool calls it must start with its thinking block (or a
 * redacted one) with the signature unchanged, else the request is refused (400).
 */
import type { ClaudeBlock, ClaudeChat } from './claude-chat.ts';
import { isObject, toText } from './text.ts';

/** Claude's names of the block kinds, for its error messages. */
const BLOCK_NAMES: Record<Exclude<ClaudeBlock['kind'], 'other'>, string> = {
  text: 'text',
  'tool-call': 'tool_use',
  'tool-result': 'tool_result',
  thinking: 'thinking',
  'redacted-thinking': 'redacted_thinking',
};

/**
 * Why Claude would refuse a chat's thinking (the budget, or the tool-use turn's thinking), worded as
 * Claude words it; undefined when it would not. `sign`: the signatures this vendor accepts back.
 */
export function findThinkingProblem(chat: ClaudeChat, sign: (text: string) => string): string | undefined {
  const thinking = chat.thinking;
  if (!isObject(thinking) || thinking.type !== 'enabled') return undefined;
  const budget = thinking.budget_tokens;
  if (typeof budget !== 'number' || budget < 1024) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
  if (typeof chat.maxTokens === 'number' && budget >= chat.maxTokens) return '`max_tokens` must be greater than `thinking.budget_tokens`.';
  const index = chat.turns.map((turn) => turn.role).lastIndexOf('assistant');
  const blocks = chat.turns[index]?.blocks ?? [];
  if (index < 0 || !blocks.some((block) => block.kind === 'tool-call')) return undefined;
  const first = blocks[0]!;
  if (first.kind === 'redacted-thinking' && typeof first.data === 'string') return undefined;
  if (first.kind !== 'thinking') {
    const found = first.kind === 'other' ? first.type : BLOCK_NAMES[first.kind];
    return `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${found}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks).`;
  }
  if (first.signature !== sign(toText(first.text ?? ''))) return `messages.${index}.content.0: Invalid \`signature\` in \`thinking\` block`;
  return undefined;
}
