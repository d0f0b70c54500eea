/** The simulated Bedrock's answers: the Converse JSON and the binary event stream of ConverseStream. */
import { EventStreamCodec, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { splitFragments, splitPieces } from '../../../simulators/text.ts';
import type { ConverseReply } from './plan-reply.ts';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

function writeUsage(reply: ConverseReply): Record<string, number> {
  const total = reply.inputTokens + reply.outputTokens + reply.cacheRead + reply.cacheWrite;
  return { inputTokens: reply.inputTokens, outputTokens: reply.outputTokens, totalTokens: total, cacheReadInputTokens: reply.cacheRead, cacheWriteInputTokens: reply.cacheWrite };
}

/** The `Converse` answer (`output.message` with the reasoning block first, `stopReason`, `usage`, `metrics`). */
export function createConverseResponse(reply: ConverseReply): unknown {
  const content: unknown[] = [];
  if (reply.redacted !== undefined) content.push({ reasoningContent: { redactedContent: reply.redacted } });
  else if (reply.thinking) content.push({ reasoningContent: { reasoningText: { text: reply.thinking.text, signature: reply.thinking.signature } } });
  if (reply.text !== undefined) content.push({ text: reply.text });
  for (const tool of reply.tools) content.push({ toolUse: { toolUseId: tool.id, name: tool.name, input: tool.input } });
  return { output: { message: { role: 'assistant', content } }, stopReason: reply.stopReason, usage: writeUsage(reply), metrics: { latencyMs: 42 } };
}

/** One event-stream message: an event (`:event-type`) or, with `exception`, an exception (`:exception-type`). */
export function encodeStreamMessage(type: string, payload: unknown, exception = false): Uint8Array {
  const headers: MessageHeaders = {
    [exception ? ':exception-type' : ':event-type']: { type: 'string', value: type },
    ':content-type': { type: 'string', value: 'application/json' },
    ':message-type': { type: 'string', value: exception ? 'exception' : 'event' },
  };
  return codec.encode({
    headers,
    body: fromUtf8(JSON.stringify(payload)),
  });
}

/**
 * The messages of a `ConverseStream` answer: `messageStart`, with thinking on the reasoning block's
 * deltas (its words, then its signature; or one redacted-content delta), the text block's deltas
 * (`pieces` of them when given), per tool `contentBlockStart` with its `toolUse` then input JSON
 * fragments, each block's `contentBlockStop`, `messageStop` and `metadata` (usage and metrics).
 * Payloads carry the `p` padding field the service adds (readers must ignore it).
 */
export function createConverseStream(reply: ConverseReply, pieces?: number): Uint8Array[] {
  const out = [encodeStreamMessage('messageStart', { p: 'abcd', role: 'assistant' })];
  let index = 0;
  if (reply.redacted !== undefined) {
    out.push(encodeStreamMessage('contentBlockDelta', { contentBlockIndex: index, delta: { reasoningContent: { redactedContent: reply.redacted } }, p: 'abcd' }));
    out.push(encodeStreamMessage('contentBlockStop', { contentBlockIndex: index, p: 'ab' }));
    index++;
  } else if (reply.thinking) {
    for (const text of splitPieces(reply.thinking.text)) out.push(encodeStreamMessage('contentBlockDelta', { contentBlockIndex: index, delta: { reasoningContent: { text } }, p: 'abcd' }));
    out.push(encodeStreamMessage('contentBlockDelta', { contentBlockIndex: index, delta: { reasoningContent: { signature: reply.thinking.signature } }, p: 'abcd' }));
    out.push(encodeStreamMessage('contentBlockStop', { contentBlockIndex: index, p: 'ab' }));
    index++;
  }
  if (reply.text !== undefined) {
    for (const text of splitPieces(reply.text, pieces)) out.push(encodeStreamMessage('contentBlockDelta', { contentBlockIndex: index, delta: { text }, p: 'abcdefgh' }));
    out.push(encodeStreamMessage('contentBlockStop', { contentBlockIndex: index, p: 'ab' }));
    index++;
  }
  for (const tool of reply.tools) {
    out.push(encodeStreamMessage('contentBlockStart', { contentBlockIndex: index, start: { toolUse: { toolUseId: tool.id, name: tool.name } }, p: 'abc' }));
    for (const input of splitFragments(JSON.stringify(tool.input))) {
      out.push(encodeStreamMessage('contentBlockDelta', { contentBlockIndex: index, delta: { toolUse: { input } }, p: 'abc' }));
    }
    out.push(encodeStreamMessage('contentBlockStop', { contentBlockIndex: index, p: 'ab' }));
    index++;
  }
  out.push(encodeStreamMessage('messageStop', { stopReason: reply.stopReason, p: 'abcdef' }));
  out.push(encodeStreamMessage('metadata', { usage: writeUsage(reply), metrics: { latencyMs: 42 }, p: 'abcdefghij' }));
  return out;
}
