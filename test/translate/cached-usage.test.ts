/**
 * Golden tests of cached-token usage in every direction (table-driven, streamed and not): each vendor
 * protocol's way of reporting prompt-cache reads and writes reaches each client style in that style's own
 * terms, and the numbers add up the way the style defines them:
 * - chat-completions / responses: `cached_tokens` is part of `prompt_tokens` / `input_tokens`;
 * - messages: `input_tokens` excludes `cache_read_input_tokens` and `cache_creation_input_tokens`;
 * - generate-content: `cachedContentTokenCount` is part of `promptTokenCount`, thoughts apart from candidates.
 */
import { describe, expect, test } from 'vitest';
import type { SseEvent } from '../../src/sse/parse.ts';
import type { ClientAdapter, VendorAdapter } from '../../src/translate/adapter.ts';
import type { CanonicalUsage } from '../../src/translate/canonical.ts';
import { anthropicChat } from '../../src/protocols/anthropic/translate/index.ts';
import { geminiChat } from '../../src/protocols/gemini/translate/index.ts';
import { openAIChatAdapter } from '../../src/protocols/openai/chat/index.ts';
import { responsesAdapter } from '../../src/protocols/openai/responses/index.ts';
import { createRequest, decodeStream, encodeStream, META, parseSseText } from './fixtures.ts';

/** The prompt: 100 tokens of which 80 read from the cache (and, on the messages protocol, 5 written). */
interface VendorCase {
  name: string;
  vendor: VendorAdapter;
  whole: unknown;
  stream: SseEvent[];
  expected: CanonicalUsage;
}

const sse = (events: Array<[string | undefined, unknown]>): SseEvent[] =>
  events.map(([event, data]) => ({ ...(event ? { event } : {}), data: JSON.stringify(data) }));

const OPENAI_USAGE = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, prompt_tokens_details: { cached_tokens: 80 }, completion_tokens_details: { reasoning_tokens: 5 } };
const ANTHROPIC_INPUT = { input_tokens: 15, cache_read_input_tokens: 80, cache_creation_input_tokens: 5 };
const GEMINI_USAGE = { promptTokenCount: 100, cachedContentTokenCount: 80, candidatesTokenCount: 15, thoughtsTokenCount: 5, totalTokenCount: 120 };

const VENDORS: VendorCase[] = [
  {
    name: 'openai prompt_tokens_details.cached_tokens', vendor: openAIChatAdapter,
    whole: { id: 'c', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: OPENAI_USAGE },
    stream: [
      { data: JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: null }] }) },
      { data: JSON.stringify({ id: 'c', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) },
      { data: JSON.stringify({ id: 'c', choices: [], usage: OPENAI_USAGE }) },
      { data: '[DONE]' },
    ],
    expected: { inputTokens: 100, cachedInputTokens: 80, outputTokens: 20, reasoningTokens: 5 },
  },
  {
    name: 'anthropic cache_read_input_tokens / cache_creation_input_tokens', vendor: anthropicChat,
    whole: { id: 'm', type: 'message', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { ...ANTHROPIC_INPUT, output_tokens: 20 } },
    stream: sse([
      ['message_start', { type: 'message_start', message: { id: 'm', content: [], usage: { ...ANTHROPIC_INPUT, output_tokens: 1 } } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 20 } }],
      ['message_stop', { type: 'message_stop' }],
    ]),
    expected: { inputTokens: 100, cachedInputTokens: 80, cacheCreationInputTokens: 5, outputTokens: 20 },
  },
  {
    name: 'gemini cachedContentTokenCount', vendor: geminiChat,
    whole: { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }], usageMetadata: GEMINI_USAGE },
    stream: [
      { data: JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'o' }] } }], usageMetadata: { promptTokenCount: 100, totalTokenCount: 100 } }) },
      { data: JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'k' }] }, finishReason: 'STOP' }], usageMetadata: GEMINI_USAGE }) },
    ],
    expected: { inputTokens: 100, cachedInputTokens: 80, outputTokens: 20, reasoningTokens: 5 },
  },
];

/** How a client style shows usage, read back into canonical terms, with its own sums checked. */
interface ClientCase {
  style: string;
  client: ClientAdapter;
  /** The usage object of a whole answer. */
  whole(body: any): any;
  /** The final usage object of a stream. */
  stream(text: string): any;
  /** Reads the style's usage, asserting that it adds up the way the style defines it. */
  read(usage: any): CanonicalUsage;
}

const lastEventWith = (text: string, pick: (data: any) => unknown): any => {
  let found: unknown;
  for (const event of parseSseText(text)) {
    if (event.data === '[DONE]') continue;
    found = pick(JSON.parse(event.data)) ?? found;
  }
  return found;
};

const CLIENTS: ClientCase[] = [
  {
    style: 'chat-completions', client: openAIChatAdapter,
    whole: (body) => body.usage,
    stream: (text) => lastEventWith(text, (chunk) => chunk.usage),
    read(usage) {
      expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
      expect(usage.prompt_tokens_details.cached_tokens).toBeLessThanOrEqual(usage.prompt_tokens);
      return { inputTokens: usage.prompt_tokens, cachedInputTokens: usage.prompt_tokens_details.cached_tokens, outputTokens: usage.completion_tokens, reasoningTokens: usage.completion_tokens_details.reasoning_tokens };
    },
  },
  {
    style: 'responses', client: responsesAdapter,
    whole: (body) => body.usage,
    stream: (text) => lastEventWith(text, (data) => (data.type === 'response.completed' ? data.response.usage : undefined)),
    read(usage) {
      expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
      expect(usage.input_tokens_details.cached_tokens).toBeLessThanOrEqual(usage.input_tokens);
      return { inputTokens: usage.input_tokens, cachedInputTokens: usage.input_tokens_details.cached_tokens, outputTokens: usage.output_tokens, reasoningTokens: usage.output_tokens_details.reasoning_tokens };
    },
  },
  {
    style: 'messages', client: anthropicChat,
    whole: (body) => body.usage,
    stream: (text) => lastEventWith(text, (data) => (data.type === 'message_delta' ? data.usage : undefined)),
    read(usage) {
      for (const field of ['input_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens', 'output_tokens']) expect(usage[field]).toBeGreaterThanOrEqual(0);
      return {
        inputTokens: usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens,
        cachedInputTokens: usage.cache_read_input_tokens,
        cacheCreationInputTokens: usage.cache_creation_input_tokens,
        outputTokens: usage.output_tokens,
        reasoningTokens: usage.output_tokens_details?.thinking_tokens ?? 0,
      };
    },
  },
  {
    style: 'generate-content', client: geminiChat,
    whole: (body) => body.usageMetadata,
    stream: (text) => lastEventWith(text, (chunk) => chunk.usageMetadata),
    read(usage) {
      const thoughts = usage.thoughtsTokenCount ?? 0;
      expect(usage.totalTokenCount).toBe(usage.promptTokenCount + usage.candidatesTokenCount + thoughts);
      expect(usage.cachedContentTokenCount ?? 0).toBeLessThanOrEqual(usage.promptTokenCount);
      return { inputTokens: usage.promptTokenCount, cachedInputTokens: usage.cachedContentTokenCount ?? 0, outputTokens: usage.candidatesTokenCount + thoughts, reasoningTokens: thoughts };
    },
  },
];

/** What a style can say of the canonical counts: the cache-write count only where the style has a field for it. */
function visible(style: string, usage: CanonicalUsage): CanonicalUsage {
  const out: CanonicalUsage = { inputTokens: usage.inputTokens, cachedInputTokens: usage.cachedInputTokens ?? 0, outputTokens: usage.outputTokens, reasoningTokens: usage.reasoningTokens ?? 0 };
  if (style === 'messages') out.cacheCreationInputTokens = usage.cacheCreationInputTokens ?? 0;
  return out;
}

const CASES = VENDORS.flatMap((vendor) => CLIENTS.flatMap((client) => [false, true].map((stream) => ({
  vendor, client, stream, label: `${vendor.name} -> ${client.style}, stream ${stream}`,
}))));

describe('cached-token usage across protocols', () => {
  test.each(CASES)('$label', ({ vendor, client, stream }) => {
    let usage: any;
    let canonical: CanonicalUsage;
    if (stream) {
      const decoded = decodeStream(vendor.vendor, vendor.stream);
      expect(decoded.done).toBe(true);
      canonical = decoded.events.reduce<CanonicalUsage>((merged, event) => (event.type === 'usage' ? { ...merged, ...Object.fromEntries(Object.entries(event.usage).filter(([, v]) => v !== undefined)) } : merged), {});
      usage = client.stream(encodeStream(client.client, decoded.events, createRequest({ includeUsage: true })));
    } else {
      const answer = vendor.vendor.decodeResponse(vendor.whole);
      canonical = answer.usage;
      usage = client.whole(client.client.encodeResponse(answer, META, createRequest({ stream: false })));
    }
    expect(canonical).toMatchObject(vendor.expected);
    expect(client.read(usage)).toEqual(visible(client.style, vendor.expected));
  });
});
