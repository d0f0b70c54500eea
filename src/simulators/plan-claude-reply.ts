import type { ClaudeChat, ClaudeReply, ClaudeThinking, ClaudeTurn } from './claude-chat.ts';
import { countTokens, createEcho, createToolArgs, isObject, readText, toText, truncateWords } from './text.ts';

/** The text a turn carries: its text blocks, or the contents of its tool results. */
function readTurnText(turn: ClaudeTurn | undefined): string {
  const blocks = turn?.blocks ?? [];
  const results = blocks.filter((block) => block.kind === 'tool-result');
  if (results.length === 0) return readText(blocks.filter((block) => block.kind === 'text'));
  return results.map((block) => block.text).join(' ');
}

/** Words of the system prompt and of every turn's text (the simulated input tokens). */
export function countClaudeInput(chat: ClaudeChat): number {
  return chat.turns.reduce((n, turn) => n + countTokens(readTurnText(turn)), countTokens(chat.system));
}

/**
 * Plans the simulated Claude's reply: `Echo: <text of the last turn>` (its tool results after a tool
 * call), cut to `maxTokens` words (`max_tokens`); with tools (and no tool result in the last turn) a short
 * text then one call per tool (the named one for choice `tool`, the first only with `oneCall`, none for
 * `none`). With thinking on, a thinking block first, signed by `sign` (each vendor's simulator signs its
 * own and accepts only its own back). `newToolId` names each call.
 */
export function planClaudeReply(chat: ClaudeChat, newToolId: () => string, sign: (text: string) => string): ClaudeReply {
  const last = chat.turns[chat.turns.length - 1];
  const reply = planPlainReply(chat, last, newToolId);
  const thinking = planThinking(chat, readTurnText(last), sign);
  return thinking ? { ...reply, thinking, outputTokens: reply.outputTokens + thinking.tokens } : reply;
}

function planPlainReply(chat: ClaudeChat, last: ClaudeTurn | undefined, newToolId: () => string): ClaudeReply {
  const lastText = readTurnText(last);
  const inputTokens = countClaudeInput(chat);
  const hasResult = (last?.blocks ?? []).some((block) => block.kind === 'tool-result');
  const { choice } = chat;
  let tools = chat.tools.filter((tool) => isObject(tool.schema));
  if (hasResult || choice.type === 'none') tools = [];
  if (choice.type === 'tool') tools = tools.filter((tool) => tool.name === choice.name);
  else if (choice.oneCall === true) tools = tools.slice(0, 1);
  if (tools.length > 0) {
    const calls = tools.map((tool) => ({ id: newToolId(), name: toText(tool.name), input: createToolArgs(tool.schema, lastText) }));
    const text = choice.type === 'auto' ? `Calling ${calls.map((call) => call.name).join(', ')}.` : undefined;
    const outputTokens = countTokens(text ?? '') + calls.reduce((n, call) => n + countTokens(JSON.stringify(call.input)) + 1, 0);
    return { text, tools: calls, stopReason: 'tool_use', inputTokens, outputTokens, cacheRead: 0, cacheWrite: 0 };
  }
  const full = createEcho(lastText);
  const cut = truncateWords(full, chat.maxTokens);
  const text = cut ?? full;
  return { text, tools: [], stopReason: cut === undefined ? 'end_turn' : 'max_tokens', inputTokens, outputTokens: countTokens(text), cacheRead: 0, cacheWrite: 0 };
}

/** The thinking of a reply to `lastText`, when the chat switches thinking on. */
function planThinking(chat: ClaudeChat, lastText: string, sign: (text: string) => string): ClaudeThinking | undefined {
  if (!isObject(chat.thinking) || chat.thinking.type !== 'enabled') return undefined;
  const text = `Thinking about: ${lastText}`.trim();
  return { text, signature: sign(text), tokens: countTokens(text) };
}
