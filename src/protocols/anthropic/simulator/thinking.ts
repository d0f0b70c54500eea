/**
 * Extended thinking of the simulated Claude, following Anthropic's documented behaviour: with
 * `thinking: {type: "enabled", budget_tokens}` (at least 1024, below `max_tokens`) the answer starts with
 * a `thinking` block whose `signature` only this simulator accepts back; when thinking is on and the last
 * assistant turn made tool calls, that turn must start with its thinking block (or a redacted one) with
 * the signature unchanged, else a 400 invalid_request_error, as the API answers.
 */
import { createHash } from 'node:crypto';
import { countTokens, isObject } from '../../../simulators/text.ts';

/** The thinking block of a reply. */
export interface ClaudeThinking {
  text: string;
  signature: string;
  tokens: number;
}

/** The signature the simulator gives `text` (and checks on the way back). */
export function signClaudeThinking(text: string): string {
  return createHash('sha256').update(`sim-claude-thinking:${text}`).digest('base64');
}

/**
 * Why a messages body with thinking would be refused (budget, or the tool-use turn's thinking), else
 * undefined. `sign`: the signatures this vendor accepts (another simulator serving Claude signs its own).
 */
export function findThinkingProblem(body: Record<string, any>, sign: (text: string) => string = signClaudeThinking): string | undefined {
  const thinking = body.thinking;
  if (!isObject(thinking) || thinking.type !== 'enabled') return undefined;
  const budget = thinking.budget_tokens;
  if (typeof budget !== 'number' || budget < 1024) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
  if (typeof body.max_tokens === 'number' && budget >= body.max_tokens) return '`max_tokens` must be greater than `thinking.budget_tokens`.';
  const messages: any[] = Array.isArray(body.messages) ? body.messages : [];
  const index = messages.map((m) => m?.role).lastIndexOf('assistant');
  const content = messages[index]?.content;
  if (index < 0 || !Array.isArray(content) || !content.some((b: any) => b?.type === 'tool_use')) return undefined;
  const first = content[0];
  if (first?.type === 'redacted_thinking' && typeof first.data === 'string') return undefined;
  if (first?.type !== 'thinking') {
    return `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks).`;
  }
  if (first.signature !== sign(String(first.thinking ?? ''))) return `messages.${index}.content.0: Invalid \`signature\` in \`thinking\` block`;
  return undefined;
}

/** The thinking of a reply to `lastText`, when the body switches thinking on. */
export function planClaudeThinking(body: Record<string, any>, lastText: string): ClaudeThinking | undefined {
  if (!isObject(body.thinking) || body.thinking.type !== 'enabled') return undefined;
  const text = `Thinking about: ${lastText}`.trim();
  return { text, signature: signClaudeThinking(text), tokens: countTokens(text) };
}
