/** The simulated Bedrock model's reply to a Converse body (the same echo and tool rules as the others). */
import { createHash } from 'node:crypto';
import { planClaudeReply, type ClaudeReply } from '../../anthropic/simulator/messages.ts';
import { findThinkingProblem } from '../../anthropic/simulator/thinking.ts';
import { countTokens, isObject } from '../../../simulators/text.ts';

/** A reply with its stop reason in Converse terms and its prompt-cache counts. */
export interface ConverseReply extends Omit<ClaudeReply, 'stopReason'> {
  stopReason: 'end_turn' | 'max_tokens' | 'tool_use' | 'stop_sequence';
  /** The thinking comes back redacted: these encrypted bytes (base64) instead of its text and signature. */
  redacted?: string;
}

/**
 * Plans the reply through the messages simulator's rules (Converse blocks read as their messages
 * counterparts): `Echo: <last user text>`, or one tool call per tool; with Claude's `thinking` in
 * `additionalModelRequestFields`, a reasoning block first, signed by this simulator (`redact`: as
 * redacted content, which Claude 3.7 on Bedrock returns when its thinking is flagged). A stop sequence
 * found in the text ends it there (`stop_sequence`). The words before the last `cachePoint` are written
 * to the prompt cache the first time they are seen (`cacheWriteInputTokens`) and read from it after
 * (`cacheReadInputTokens`).
 */
export function planConverseReply(body: Record<string, any>, nextId: () => string, cache: Set<string>, redact = false): ConverseReply {
  const claude = planClaudeReply(readClaudeBody(body), () => `tooluse_${nextId()}`);
  if (claude.thinking) claude.thinking = { ...claude.thinking, signature: signConverseThinking(claude.thinking.text) };
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
  return findThinkingProblem(readClaudeBody(body), signConverseThinking);
}

/** A Converse body read as the messages request the simulated Claude plans from. */
function readClaudeBody(body: Record<string, any>): Record<string, any> {
  const choice = body.toolConfig?.toolChoice ?? {};
  const thinking = body.additionalModelRequestFields?.thinking;
  return {
    system: readBlocksText(body.system),
    messages: body.messages.map((m: any) => ({ role: m.role, content: m.content.map(toClaudeBlock).filter(Boolean) })),
    tools: (body.toolConfig?.tools ?? []).filter((t: any) => isObject(t?.toolSpec)).map((t: any) => ({ name: t.toolSpec.name, input_schema: t.toolSpec.inputSchema?.json ?? {} })),
    tool_choice: choice.any ? { type: 'any' } : choice.tool ? { type: 'tool', name: choice.tool.name } : { type: 'auto' },
    max_tokens: body.inferenceConfig?.maxTokens,
    ...(isObject(thinking) ? { thinking } : {}),
  };
}

function toClaudeBlock(block: any): Record<string, unknown> | undefined {
  if (typeof block?.text === 'string') return { type: 'text', text: block.text };
  if (isObject(block?.toolUse)) return { type: 'tool_use', id: block.toolUse.toolUseId, name: block.toolUse.name, input: block.toolUse.input };
  const reasoning = block?.reasoningContent;
  if (isObject(reasoning?.reasoningText)) return { type: 'thinking', thinking: reasoning.reasoningText.text, signature: reasoning.reasoningText.signature };
  if (typeof reasoning?.redactedContent === 'string') return { type: 'redacted_thinking', data: reasoning.redactedContent };
  if (isObject(block?.toolResult)) {
    const content = (block.toolResult.content ?? []).map((c: any) => ({ type: 'text', text: typeof c?.text === 'string' ? c.text : JSON.stringify(c?.json ?? '') }));
    return { type: 'tool_result', tool_use_id: block.toolResult.toolUseId, content };
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
