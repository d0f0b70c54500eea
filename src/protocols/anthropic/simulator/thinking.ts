/**
 * The signature the simulated Anthropic API gives a thinking block (and checks on the way back): the
 * thinking rules themselves are the model's (src/simulators/find-thinking-problem.ts).
 */
import { createHash } from 'node:crypto';

/** The signature the simulator gives `text` (and checks on the way back). */
export function signClaudeThinking(text: string): string {
  return createHash('sha256').update(`sim-claude-thinking:${text}`).digest('base64');
}
