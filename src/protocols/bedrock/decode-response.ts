/** Converse response -> canonical answer. */
import { GatewayError } from '../../errors.ts';
import type { CanonicalResponse, TextPart, ToolCallPart } from '../../translate/canonical.ts';
import { isRecord } from '../../translate/helpers.ts';
import { readConverseStop, readConverseUsage } from './read-converse.ts';

/**
 * Reads `{output: {message: {content}}, stopReason, usage}`: text and `toolUse` blocks (reasoning and
 * other blocks are left out). Converse answers carry no id: the gateway makes one.
 */
export function decodeConverseResponse(body: unknown): CanonicalResponse {
  const message = isRecord(body) && isRecord(body.output) && isRecord(body.output.message) ? body.output.message : undefined;
  if (!message || !Array.isArray(message.content)) {
    throw new GatewayError(502, 'upstream_invalid_response', 'The vendor answered with an unreadable message.');
  }
  const content: Array<TextPart | ToolCallPart> = [];
  for (const block of message.content) {
    if (!isRecord(block)) continue;
    if (typeof block.text === 'string') content.push({ type: 'text', text: block.text });
    else if (isRecord(block.toolUse)) {
      const use = block.toolUse;
      content.push({ type: 'tool_call', id: String(use.toolUseId ?? ''), name: String(use.name ?? ''), arguments: JSON.stringify(use.input ?? {}) });
    }
  }
  return { content, finishReason: readConverseStop((body as Record<string, unknown>).stopReason), usage: readConverseUsage((body as Record<string, unknown>).usage) };
}
