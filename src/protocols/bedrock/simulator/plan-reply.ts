/** The simulated Bedrock model's reply to a Converse body (the same echo and tool rules as the others). */
import { createHash } from 'node:crypto';
import type { ClaudeBlock, ClaudeChat, ClaudeReply } from '../../../simulators/claude-chat.ts';
import { findThinkingProblem } from '../../../simulators/find-thinking-problem.ts';
import { planClaudeReply } from '../../../simulators/plan-claude-reply.ts';
import { countTokens, isObject, readText } from '../../../simulators/text.ts';

/** A reply with its stop reason in Converse terms and its prompt-cache counts. */
export interface ConverseReply extends Omit<ClaudeReply, 'stopReason'> {
  stopReason: 'end_turn' | 'max_tokens' | 'tool_use' | 'stop_sequence';
  /** The thinking comes back redacted: these encrypted bytes (base64) instead of its text and signature. */
  redacted?: string;
}

/**
 * Plans the reply by the simulated Claude's rules (src/simulators/plan-claude-reply.ts, the Converse body
 * read as its conversation): `Echo: <last user text>`, or one tool call per tool; with Claude's `thinking` in
 * `additionalModelRequestFields`, a reasoning block first, signed by this simulator (`redact`: as
 * redacted content, which Claude 3.7 on Bedrock returns when its thinking is flagged). A stop sequence
 * found in the text ends it there (`stop_sequence`). The words before the last `cachePoint` are written
 * to the prompt cache the first time they are seen (`cacheWriteInputTokens`) and read from it after
 * (`cacheReadInputTokens`).
 */
export function planConverseReply(body: Record<string, any>, nextId: () => string, cache: Set<string>, redact = false): ConverseReply {
  const claude = planClaudeReply(readConverseChat(body), () => `tooluse_${nextId()}`, signConverseThinking);
  const reply: ConverseReply = { ...claude, stopReason: claude.stopReason };
  if (redact && claude.thinking) reply.redacted = Buffer.from(`sim-redacted:${claude.thinking.text}`).toString('base64');
  const stops: unknown[] = body.inferenceConfig?.stopSequences ?? [];
  for (const stop of stops) {
    const at = typeof stop === 'string' && stop && reply.text !== undefined ? reply.text.indexOf(stop) : -1;
    if (at < 0 || reply.text === undefined) continue;
    reply.text = reply.text.slice(0, at);
    reply.stopReason = 'stop_sequence';
    reply.outputTokens = countTokens(reply.text) + (reply.thinking?.tokens ?? 0);
  }
  const prefix = readCachedPrefix(body);
  if (prefix) {
    const words = Math.min(countTokens(prefix), reply.inputTokens);
    if (cache.has(prefix)) reply.cacheRead = words;
    else reply.cacheWrite = words;
    cache.add(prefix);
    reply.inputTokens -= words;
  }
  return reply;
}

/** The signature the simulated Bedrock gives reasoning `text` (not the messages simulator's: each verifies its own). */
export function signConverseThinking(text: string): string {
  return createHash('sha256').update(`sim-bedrock-reasoning:${text}`).digest('base64');
}

/**
 * Why Bedrock would refuse a body's reasoning, as Claude on Bedrock does (a ValidationException): a
 * budget under 1024 or not below `maxTokens`, or, with thinking on, a last assistant tool-use turn that
 * does not start with its `reasoningContent` block carrying this simulator's signature (or redacted
 * content).
 */
export function findConverseThinkingProblem(body: Record<string, any>): string | undefined {
  return findThinkingProblem(readConverseChat(body), signConverseThinking);
}

/** A Converse body read as the conversation the simulated Claude reads. */
function readConverseChat(body: Record<string, any>): ClaudeChat {
  const choice = body.toolConfig?.toolChoice ?? {};
  const thinking = body.additionalModelRequestFields?.thinking;
  return {
    system: readBlocksText(body.system),
    turns: body.messages.map((m: any) => ({ role: m.role, blocks: m.content.map(readConverseBlock).filter(Boolean) })),
    tools: (body.toolConfig?.tools ?? []).filter((t: any) => isObject(t?.toolSpec)).map((t: any) => ({ name: t.toolSpec.name, schema: t.toolSpec.inputSchema?.json ?? {} })),
    choice: choice.any ? { type: 'any' } : choice.tool ? { type: 'tool', name: choice.tool.name } : { type: 'auto' },
    maxTokens: body.inferenceConfig?.maxTokens,
    thinking: isObject(thinking) ? thinking : undefined,
  };
}

function readConverseBlock(block: any): ClaudeBlock | undefined {
  if (typeof block?.text === 'string') return { kind: 'text', text: block.text };
  if (isObject(block?.toolUse)) return { kind: 'tool-call' };
  const reasoning = block?.reasoningContent;
  if (isObject(reasoning?.reasoningText)) return { kind: 'thinking', text: reasoning.reasoningText.text, signature: reasoning.reasoningText.signature };
  if (typeof reasoning?.redactedContent === 'string') return { kind: 'redacted-thinking', data: reasoning.redactedContent };
  if (isObject(block?.toolResult)) {
    const content = (block.toolResult.content ?? []).map((c: any) => ({ text: typeof c?.text === 'string' ? c.text : JSON.stringify(c?.json ?? '') }));
    return { kind: 'tool-result', text: readText(content) };
  }
  return undefined;
}

function readBlocksText(blocks: unknown): string {
  return Array.isArray(blocks) ? blocks.map((b) => (typeof b?.text === 'string' ? b.text : '')).filter(Boolean).join(' ') : '';
}

/** The text (tools, system, messages in that order) before the last `cachePoint`; empty when there is none. */
function readCachedPrefix(body: Record<string, any>): string {
  const parts: unknown[] = [...(body.toolConfig?.tools ?? []), ...(body.system ?? []), ...body.messages.flatMap((m: any) => m.content)];
  let last = -1;
  parts.forEach((part, i) => {
    if (isObject(part) && isObject(part.cachePoint)) last = i;
  });
  return last < 0 ? '' : parts.slice(0, last).map((part) => JSON.stringify(part)).join(' ');
}
