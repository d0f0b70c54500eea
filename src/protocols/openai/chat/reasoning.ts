/**
 * Reasoning on chat-completions messages, both directions. The protocol has no reasoning field of its
 * own; the de-facto extensions are used: `reasoning_content` (thinking text, as OpenAI-compatible
 * vendors send it), `thinking_blocks` (a list of `{type: "thinking", thinking, signature}` and
 * `{type: "redacted_thinking", data}` carrying the gateway's signature tokens), and on a tool call
 * Google's `extra_content.google.thought_signature` (on the message: its text's signature). A client that appends the assistant message it
 * received sends all three back.
 */
import type { AnswerPart, ContentPart, ReasoningPart, ToolCallPart } from '../../../translate/canonical.ts';
import { isRecord } from '../../../translate/helpers.ts';
import { readList, readObject, readStringField } from '../../../translate/read-field.ts';
import { findSignedText, readReasoningPart, readSignedFields, writeCallSignature, writeReasoningToken, writeTextSignature } from '../../../translate/reasoning-parts.ts';

/** The reasoning parts of an assistant message a client sent: its `thinking_blocks`, else its `reasoning_content`. */
export function readAssistantReasoning(message: Record<string, any>, where: string): ContentPart[] {
  const blocks = readList(message.thinking_blocks, `${where}.thinking_blocks`);
  if (blocks && blocks.length > 0) {
    return blocks.map((item, k) => {
      const at = `${where}.thinking_blocks[${k}]`;
      const block = readObject(item, at);
      if (block.type === 'redacted_thinking') return readReasoningPart('', readStringField(block.data, `${at}.data`), true);
      return readReasoningPart(readStringField(block.thinking, `${at}.thinking`) ?? '', readStringField(block.signature, `${at}.signature`));
    });
  }
  const text = readStringField(message.reasoning_content, `${where}.reasoning_content`);
  return text ? [{ type: 'reasoning', text }] : [];
}

/**
 * The signature (and its origin) of a tool call or a message (its text's) a client sent back, from
 * `extra_content.google.thought_signature`.
 */
export function readExtraSignature(call: Record<string, any>, at: string): Pick<ToolCallPart, 'signature' | 'origin'> {
  const google = isRecord(call.extra_content) && isRecord(call.extra_content.google) ? call.extra_content.google : undefined;
  return readSignedFields(readStringField(google?.thought_signature, `${at}.extra_content.google.thought_signature`));
}

/** `extra_content` of a tool call with a signature (the vendor's own value, or a client's token). */
export function writeCallExtra(signature: string | undefined): Record<string, unknown> {
  return signature === undefined ? {} : { extra_content: { google: { thought_signature: signature } } };
}

/**
 * Sets `reasoning_content` and `thinking_blocks` of an answer's message, and its text's signature token
 * as the message's `extra_content`.
 */
export function writeMessageReasoning(message: Record<string, unknown>, content: AnswerPart[], origin: string | undefined): void {
  const signed = findSignedText(content);
  if (signed) Object.assign(message, writeCallExtra(writeTextSignature(signed.signature, signed.origin ?? origin)));
  const reasoning = content.filter((part): part is ReasoningPart => part.type === 'reasoning');
  const text = reasoning.map((part) => part.text).join('');
  if (text) message.reasoning_content = text;
  const blocks = reasoning.map((part) => writeThinkingBlock(part, origin)).filter((block) => block !== undefined);
  if (blocks.length > 0) message.thinking_blocks = blocks;
}

/** A `thinking_blocks` entry of a reasoning part with a signature or redacted data (else undefined). */
export function writeThinkingBlock(part: ReasoningPart, origin: string | undefined): Record<string, unknown> | undefined {
  const token = writeReasoningToken(part, origin);
  if (token === undefined) return undefined;
  return part.redacted !== undefined ? { type: 'redacted_thinking', data: token } : { type: 'thinking', thinking: part.text, signature: token };
}

/** The `extra_content` a client receives on a tool call with a signature. */
export function writeClientCallExtra(part: Pick<ToolCallPart, 'signature' | 'origin'>, origin: string | undefined): Record<string, unknown> {
  return writeCallExtra(writeCallSignature(part.signature, part.origin ?? origin));
}
