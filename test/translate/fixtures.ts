/** Fixture loading and stream helpers for the translation tests (not a test file). */
import { readFileSync } from 'node:fs';
import { createSseParser, type SseEvent } from '../../src/sse/parse.ts';
import type { ClientAdapter, ResponseMeta, VendorAdapter } from '../../src/translate/adapter.ts';
import type { CanonicalRequest, StreamEvent } from '../../src/translate/canonical.ts';
import { createFieldPolicy, type FieldPolicy } from '../../src/translate/field-policy.ts';
import { VENDOR_FIXTURES } from '../helpers/vendor-fixtures.ts';

const FIXTURES = VENDOR_FIXTURES;

/** Reads a JSON fixture, e.g. `openai/chat-response.json`. */
export function readFixture(name: string): any {
  return JSON.parse(readFileSync(`${FIXTURES}/${name}`, 'utf8'));
}

/** Reads the raw text of a fixture. */
export function readFixtureText(name: string): string {
  return readFileSync(`${FIXTURES}/${name}`, 'utf8');
}

/** Parses SSE text into events with the gateway's own parser. */
export function parseSseText(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createSseParser((event) => events.push(event));
  parser.feed(text);
  parser.end();
  return events;
}

/** Reads an SSE fixture into events. */
export function readSseFixture(name: string): SseEvent[] {
  return parseSseText(readFixtureText(name));
}

/** Runs SSE events through a vendor adapter's stream decoder. */
export function decodeStream(adapter: VendorAdapter, events: SseEvent[]): { events: StreamEvent[]; done: boolean } {
  const decoder = adapter.createStreamDecoder();
  const out = events.flatMap((event) => decoder.decode(event));
  return { events: out, done: decoder.done };
}

/** A fixed answer identity for encoders. */
export const META: ResponseMeta = { id: 'test123', model: 'client-model', created: 1700000000 };

/** A minimal canonical request. */
export function createRequest(overrides: Partial<CanonicalRequest> = {}): CanonicalRequest {
  return { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: true, includeUsage: false, ...overrides };
}

/** Runs canonical events through a client adapter's stream encoder; returns the SSE text. */
export function encodeStream(adapter: ClientAdapter, events: StreamEvent[], request: CanonicalRequest = createRequest()): string {
  const encoder = adapter.createStreamEncoder(META, request);
  return events.map((event) => encoder.encode(event)).join('') + encoder.end();
}

/** A lenient (dropping) policy. */
export function createLenientPolicy(): FieldPolicy {
  return createFieldPolicy(false);
}

/** What a client finally sees from a stream, whatever its style. */
export interface StreamSummary {
  text: string;
  toolCalls: Array<{ id: string; name: string; arguments: unknown }>;
  finish?: string;
  usage?: Record<string, unknown>;
}

/** Accumulates a chat-completions client stream (as the SDK's stream helper does). */
export function summarizeOpenAIStream(text: string): StreamSummary & { done: boolean } {
  const summary: StreamSummary & { done: boolean } = { text: '', toolCalls: [], done: false };
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  for (const event of parseSseText(text)) {
    if (event.event !== undefined) throw new Error('chat-completions chunks have no event line');
    if (event.data === '[DONE]') {
      summary.done = true;
      continue;
    }
    const chunk = JSON.parse(event.data);
    if (chunk.usage) summary.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) continue;
    summary.text += choice.delta.content ?? '';
    for (const call of choice.delta.tool_calls ?? []) {
      calls[call.index] ??= { id: call.id, name: call.function.name, arguments: '' };
      calls[call.index].arguments += call.function.arguments ?? '';
    }
    if (choice.finish_reason) summary.finish = choice.finish_reason;
  }
  summary.toolCalls = calls.map((call) => ({ ...call, arguments: JSON.parse(call.arguments) }));
  return summary;
}

/** Accumulates a messages client stream, checking the block protocol (start -> deltas -> stop). */
export function summarizeAnthropicStream(text: string): StreamSummary & { types: string[] } {
  const summary: StreamSummary & { types: string[] } = { text: '', toolCalls: [], types: [] };
  const blocks: any[] = [];
  const open = new Set<number>();
  for (const event of parseSseText(text)) {
    const data = JSON.parse(event.data);
    if (event.event !== data.type) throw new Error(`event line ${event.event} does not match ${data.type}`);
    summary.types.push(data.type);
    if (data.type === 'message_start') summary.usage = data.message.usage;
    if (data.type === 'content_block_start') {
      blocks[data.index] = { ...data.content_block, json: '' };
      open.add(data.index);
    }
    if (data.type === 'content_block_delta') {
      if (!open.has(data.index)) throw new Error(`delta for block ${data.index} that is not open`);
      if (data.delta.type === 'text_delta') blocks[data.index].text += data.delta.text;
      if (data.delta.type === 'input_json_delta') blocks[data.index].json += data.delta.partial_json;
    }
    if (data.type === 'content_block_stop') open.delete(data.index);
    if (data.type === 'message_delta') {
      summary.finish = data.delta.stop_reason;
      summary.usage = { ...summary.usage, ...data.usage };
    }
  }
  if (open.size > 0) throw new Error('blocks left open');
  for (const block of blocks) {
    if (block.type === 'text') summary.text += block.text;
    if (block.type === 'tool_use') summary.toolCalls.push({ id: block.id, name: block.name, arguments: JSON.parse(block.json || '{}') });
  }
  return summary;
}

/** Accumulates a generate-content client stream (CRLF framing required). */
export function summarizeGeminiStream(text: string): StreamSummary & { chunks: number } {
  if (!text.includes('\r\n\r\n') || /[^\r]\n/.test(text)) throw new Error('generate-content streams are CRLF-framed');
  const summary: StreamSummary & { chunks: number } = { text: '', toolCalls: [], chunks: 0 };
  for (const event of parseSseText(text)) {
    const chunk = JSON.parse(event.data);
    summary.chunks += 1;
    const candidate = chunk.candidates[0];
    for (const part of candidate.content.parts) {
      if (typeof part.text === 'string') summary.text += part.text;
      if (part.functionCall) summary.toolCalls.push({ id: part.functionCall.id, name: part.functionCall.name, arguments: part.functionCall.args });
    }
    if (candidate.finishReason) summary.finish = candidate.finishReason;
    if (chunk.usageMetadata) summary.usage = chunk.usageMetadata;
  }
  return summary;
}

/** Accumulates a responses-style client stream, checking sequence numbers. */
export function summarizeResponsesStream(text: string): StreamSummary & { types: string[]; response?: any } {
  const summary: StreamSummary & { types: string[]; response?: any } = { text: '', toolCalls: [], types: [] };
  let sequence = 0;
  for (const event of parseSseText(text)) {
    const data = JSON.parse(event.data);
    if (event.event !== data.type) throw new Error(`event line ${event.event} does not match ${data.type}`);
    if (data.sequence_number !== sequence++) throw new Error('sequence numbers are not monotonic');
    summary.types.push(data.type);
    if (data.type === 'response.output_text.delta') summary.text += data.delta;
    if (data.type === 'response.output_item.done' && data.item.type === 'function_call') {
      summary.toolCalls.push({ id: data.item.call_id, name: data.item.name, arguments: JSON.parse(data.item.arguments) });
    }
    if (data.type === 'response.completed' || data.type === 'response.incomplete') {
      summary.response = data.response;
      summary.finish = data.response.status;
      summary.usage = data.response.usage;
    }
  }
  return summary;
}
