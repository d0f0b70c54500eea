/** Chat-completions streams: vendor chunks -> canonical events, and canonical events -> client chunks. */
import type { SseEvent } from '../../../sse/parse.ts';
import { formatSseEvent, formatSseJson } from '../../../sse/write.ts';
import type { CanonicalRequest, CanonicalUsage, ReasoningPart, StreamEvent } from '../../../translate/canonical.ts';
import { mergeUsage } from '../../../translate/canonical.ts';
import type { ResponseMeta, StreamDecoder, StreamEncoder } from '../../../translate/adapter.ts';
import { isRecord, parseStreamEvent, withIdPrefix } from '../../../translate/helpers.ts';
import { decodeOpenAIError, readOpenAIFinish, readOpenAIUsage, readReasoningText, readVendorCallSignature, writeOpenAIFinish, writeOpenAIUsage } from './response.ts';
import { writeCallExtra, writeClientCallExtra, writeThinkingBlock } from './reasoning.ts';
import { readTextChunk, readTextChunkHead } from './read-text-chunk.ts';
import { isPlainText, NO_EVENTS, writeJsonString } from '../../../translate/stream-text.ts';
import { writeTextSignature } from '../../../translate/reasoning-parts.ts';
import { toText } from '../../../lib/to-text.ts';

/**
 * Decodes a chat-completions stream: `data:` chunks, `tool_calls[index]` deltas (the first delta of an
 * index carries id and name), a usage chunk, and the `[DONE]` sentinel that marks completion.
 */
export function createOpenAIChatStreamDecoder(): StreamDecoder {
  let started = false;
  // How this stream's text chunks begin (from its first chunk): those are read without a parse.
  let textHead: string | undefined;
  const toolIndexes = new Map<number, number>();
  // A plain property, not a getter: a decoder is made per stream, and an accessor literal costs more.
  const decoder = {
    done: false,
    decode(event: SseEvent): readonly StreamEvent[] {
      if (event.data === '[DONE]') {
        decoder.done = true;
        return NO_EVENTS;
      }
      if (textHead !== undefined) {
        const text = readTextChunk(event.data, textHead);
        if (text !== undefined) return text ? [{ type: 'text', text }] : NO_EVENTS;
      }
      const chunk = parseStreamEvent(event.data);
      if (isRecord(chunk.error)) return [{ type: 'error', error: decodeOpenAIError(500, chunk) }];
      const out: StreamEvent[] = [];
      if (!started) {
        started = true;
        textHead = readTextChunkHead(event.data);
        out.push({ type: 'start', id: typeof chunk.id === 'string' ? chunk.id : undefined, model: typeof chunk.model === 'string' ? chunk.model : undefined });
      }
      const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
      if (isRecord(choice)) readChoice(choice, toolIndexes, out);
      if (isRecord(chunk.usage)) out.push({ type: 'usage', usage: readOpenAIUsage(chunk.usage) });
      return out;
    },
  };
  return decoder;
}

function readChoice(choice: Record<string, any>, toolIndexes: Map<number, number>, out: StreamEvent[]): void {
  const delta = isRecord(choice.delta) ? choice.delta : {};
  const reasoning = readReasoningText(delta);
  if (reasoning) out.push({ type: 'reasoning', text: reasoning });
  const text = typeof delta.content === 'string' ? delta.content : typeof delta.refusal === 'string' ? delta.refusal : '';
  if (text) out.push({ type: 'text', text });
  const signature = readVendorCallSignature(delta);
  if (signature) out.push({ type: 'text_signature', signature });
  if (Array.isArray(delta.tool_calls)) {
    delta.tool_calls.forEach((call: unknown, position: number) => {
      if (!isRecord(call)) return;
      const vendorIndex = typeof call.index === 'number' ? call.index : position;
      let index = toolIndexes.get(vendorIndex);
      if (index === undefined) {
        index = toolIndexes.size;
        toolIndexes.set(vendorIndex, index);
        const signature = readVendorCallSignature(call);
        out.push({ type: 'tool_call_start', index, id: toText(call.id), name: toText(call.function?.name), ...(signature ? { signature } : {}) });
      }
      const args = call.function?.arguments;
      if (typeof args === 'string' && args) out.push({ type: 'tool_call_delta', index, arguments: args });
    });
  }
  if (typeof choice.finish_reason === 'string') out.push({ type: 'finish', reason: readOpenAIFinish(choice.finish_reason) });
}

/** The first chunk's delta, as JSON.stringify writes `{ role: 'assistant', content: '' }`. */
const ROLE_DELTA = '{"role":"assistant","content":""}';
/** A plain text chunk's delta up to its content's opening quote. */
const TEXT_OPEN = '{"content":"';
/** What follows a chunk's delta when it has no finish reason. */
const OPEN_END = ',"logprobs":null,"finish_reason":null}]}\n\n';
/** A plain text chunk's delta from its content's closing quote on. */
const TEXT_END = `"}${OPEN_END}`;

/**
 * Encodes a chat-completions stream for the client: a role chunk, content and `tool_calls[index]`
 * deltas, a finish chunk, then (when the client set `stream_options.include_usage`) a usage chunk with
 * empty `choices`, and `data: [DONE]`. Reasoning text goes in `reasoning_content` deltas; at each
 * signature (or redacted block) a delta carries the whole `thinking_blocks` list so far (the SDK keeps
 * the last value of a field it does not know); a call's signature token comes whole in its first delta,
 * a text's in a delta of its own (`extra_content`, as Google's compatible mode sends it).
 */
export function createOpenAIChatStreamEncoder(meta: ResponseMeta, request: CanonicalRequest): StreamEncoder {
  return new ChatStreamEncoder(meta, request);
}

/**
 * The encoder of one stream: a class, not closures over a literal (six functions and their context per
 * stream showed in the allocation profile of a translated stream).
 */
class ChatStreamEncoder implements StreamEncoder {
  private readonly id: string;
  /**
   * Every chunk's envelope up to its delta, serialised once: byte for byte what JSON.stringify gives for
   * { id, object, created, model, choices: [{ index, delta, logprobs, finish_reason }] }. Joined, not
   * concatenated: one flat string that each chunk refers to, not a tree of pieces walked at every write.
   */
  private readonly head: string;
  /** The head of a plain text chunk, up to its content's opening quote. */
  private readonly textHead: string;
  private started = false;
  private finished = false;
  private usage: CanonicalUsage = {};
  private blocks: Array<Record<string, unknown>> | undefined;
  private thinking = '';

  constructor(
    private readonly meta: ResponseMeta,
    private readonly request: CanonicalRequest,
  ) {
    this.id = withIdPrefix('chatcmpl-', meta.id);
    // One join for both: the envelope is the text head short of its content's opening (a slice of a flat
    // string is read as one piece too).
    this.textHead = ['data: {"id":', writeJsonString(this.id), ',"object":"chat.completion.chunk","created":', meta.created, ',"model":', writeJsonString(meta.model), ',"choices":[{"index":0,"delta":', TEXT_OPEN].join('');
    this.head = this.textHead.slice(0, -TEXT_OPEN.length);
  }

  /** A chunk whose delta is `delta` (JSON). */
  private chunk(delta: string, finishReason: string | null = null): string {
    if (finishReason === null) return this.head + delta + OPEN_END;
    return `${this.head}${delta},"logprobs":null,"finish_reason":${writeJsonString(finishReason)}}]}\n\n`;
  }

  /** The most frequent chunk, { content } as JSON.stringify writes it (plain text between constant pieces). */
  private textChunk(text: string): string {
    if (isPlainText(text)) return this.textHead + text + TEXT_END;
    return `${this.head}{"content":${JSON.stringify(text)}}${OPEN_END}`;
  }

  private addBlock(part: ReasoningPart): string {
    const block = writeThinkingBlock({ ...part, text: this.thinking }, this.meta.origin);
    this.thinking = '';
    const blocks = (this.blocks ??= []);
    if (block) blocks.push(block);
    return this.start() + this.chunk(JSON.stringify({ thinking_blocks: blocks }));
  }

  private start(): string {
    if (this.started) return '';
    this.started = true;
    return this.chunk(ROLE_DELTA);
  }

  encode(event: StreamEvent): string {
    const { meta } = this;
    switch (event.type) {
      case 'start':
        return this.start();
      case 'text':
        return this.start() + this.textChunk(event.text);
      case 'text_signature':
        return this.start() + this.chunk(JSON.stringify(writeCallExtra(writeTextSignature(event.signature, event.origin ?? meta.origin))));
      case 'reasoning':
        this.thinking += event.text;
        return this.start() + this.chunk(`{"reasoning_content":${writeJsonString(event.text)}}`);
      case 'reasoning_signature':
        return this.addBlock({ type: 'reasoning', text: '', signature: event.signature, ...(event.origin ? { origin: event.origin } : {}) });
      case 'reasoning_redacted':
        return this.addBlock({ type: 'reasoning', text: '', redacted: event.data, ...(event.origin ? { origin: event.origin } : {}) });
      case 'tool_call_start': {
        const call = { index: event.index, id: event.id, type: 'function', function: { name: event.name, arguments: '' }, ...writeClientCallExtra(event, meta.origin) };
        return this.start() + this.chunk(JSON.stringify({ tool_calls: [call] }));
      }
      case 'tool_call_delta':
        return this.start() + this.chunk(JSON.stringify({ tool_calls: [{ index: event.index, function: { arguments: event.arguments } }] }));
      case 'finish':
        if (this.finished) return '';
        this.finished = true;
        return this.start() + this.chunk('{}', writeOpenAIFinish(event.reason));
      case 'usage':
        this.usage = mergeUsage(this.usage, event.usage);
        return '';
      default:
        return '';
    }
  }

  end(): string {
    const { id, meta } = this;
    let text = this.start();
    if (!this.finished) text += this.chunk('{}', 'stop');
    if (this.request.includeUsage) {
      text += formatSseJson({ id, object: 'chat.completion.chunk', created: meta.created, model: meta.model, choices: [], usage: writeOpenAIUsage(this.usage) });
    }
    return text + formatSseEvent('[DONE]');
  }
}
