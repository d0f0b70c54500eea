/** Converse response -> canonical answer. */
import { GatewayError } from '../../errors.ts';
import type { AnswerPart, CanonicalResponse, ReasoningPart } from '../../translate/canonical.ts';
import { isRecord } from '../../translate/helpers.ts';
import { readConverseStop, readConverseUsage } from './read-converse.ts';
import { toText } from '../../lib/to-text.ts';

/**
 * Reads `{output: {message: {content}}, stopReason, usage}`: text, `toolUse` and `reasoningContent` blocks
 * (other blocks are left out). Converse answers carry no id: the gateway makes one.
 */
export function decodeConverseResponse(body: unknown): CanonicalResponse {
  const message = isRecord(body) && isRecord(body.output) && isRecord(body.output.message) ? body.output.message : undefined;
  if (!message || !Array.isArray(message.content)) {
    throw new GatewayError(502, 'upstream_invalid_response', 'The vendor answered with an unreadable message.');
  }
  const content: AnswerPart[] = [];
  for (const block of message.content) {
    if (!isRecord(block)) continue;
    if (typeof block.text === 'string') content.push({ type: 'text', text: block.text });
    else if (isRecord(block.toolUse)) {
      const use = block.toolUse;
      content.push({ type: 'tool_call', id: toText(use.toolUseId), name: toText(use.name), arguments: JSON.stringify(use.input ?? {}) });
    } else if (isRecord(block.reasoningContent)) {
      const part = readReasoningContent(block.reasoningContent);
      if (part) content.push(part);
    }
  }
  return { content, finishReason: readConverseStop((body as Record<string, unknown>).stopReason), usage: readConverseUsage((body as Record<string, unknown>).usage) };
}

/**
 * A `reasoningContent` block as a reasoning part: `reasoningText` (text and its signature) or
 * `redactedContent` (the encrypted bytes, kept as the base64 text the wire carries).
 */
function readReasoningContent(block: Record<string, unknown>): ReasoningPart | undefined {
  if (typeof block.redactedContent === 'string') return { type: 'reasoning', text: '', redacted: block.redactedContent };
  if (!isRecord(block.reasoningText)) return undefined;
  const { text, signature } = block.reasoningText;
  return { type: 'reasoning', text: typeof text === 'string' ? text : '', ...(typeof signature === 'string' && signature ? { signature } : {}) };
}
