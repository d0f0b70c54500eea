/**
 * Table-driven golden tests across protocols: every vendor fixture (stream and non-stream) decoded and
 * re-encoded for every client style must show the client the same text, tool calls, finish and usage.
 */
import { describe, expect, test } from 'vitest';
import type { SseEvent } from '../../src/sse/parse.ts';
import type { ClientAdapter, VendorAdapter } from '../../src/translate/adapter.ts';
import type { FinishReason } from '../../src/translate/canonical.ts';
import { anthropicChat } from '../../src/protocols/anthropic/translate/index.ts';
import { geminiChat } from '../../src/protocols/gemini/translate/index.ts';
import { openAIChatAdapter } from '../../src/protocols/openai/chat/index.ts';
import { responsesAdapter } from '../../src/protocols/openai/responses/index.ts';
import {
  createRequest, decodeStream, encodeStream, META, readFixture, readSseFixture, summarizeAnthropicStream, summarizeGeminiStream,
  summarizeOpenAIStream, summarizeResponsesStream, type StreamSummary,
} from './fixtures.ts';

interface VendorCase {
  name: string;
  vendor: VendorAdapter;
  events: () => SseEvent[];
  text: string;
  tools: Array<{ name: string; arguments: unknown }>;
  finish: FinishReason;
  input: number;
  output: number;
}

const STREAMS: VendorCase[] = [
  { name: 'openai/chat-stream.sse', vendor: openAIChatAdapter, events: () => readSseFixture('openai/chat-stream.sse'), text: 'Hello! How can I help you today?', tools: [], finish: 'stop', input: 19, output: 10 },
  {
    name: 'openai/chat-tools-stream.sse', vendor: openAIChatAdapter, events: () => readSseFixture('openai/chat-tools-stream.sse'), text: '',
    tools: [{ name: 'get_weather', arguments: { city: 'Edinburgh', units: 'c' } }, { name: 'get_stock_price', arguments: { ticker: 'AAPL' } }], finish: 'tool_calls', input: 91, output: 48,
  },
  { name: 'anthropic/messages-stream.sse', vendor: anthropicChat, events: () => readSseFixture('anthropic/messages-stream.sse'), text: 'Hello there!', tools: [], finish: 'stop', input: 11, output: 6 },
  {
    name: 'anthropic/messages-stream-output-only-usage.sse', vendor: anthropicChat, events: () => readSseFixture('anthropic/messages-stream-output-only-usage.sse'),
    text: 'Hello!', tools: [], finish: 'stop', input: 25, output: 15,
  },
  {
    name: 'anthropic/messages-tools-stream.sse', vendor: anthropicChat, events: () => readSseFixture('anthropic/messages-tools-stream.sse'),
    text: "I'll check the current weather in Paris for you.", tools: [{ name: 'get_weather', arguments: { location: 'Paris, France' } }], finish: 'tool_calls', input: 377, output: 65,
  },
  {
    name: 'gemini/streamGenerateContent.sse', vendor: geminiChat, events: () => readSseFixture('gemini/streamGenerateContent.sse'),
    text: 'The sky is blue because of a phenomenon called Rayleigh scattering: air molecules scatter short (blue) wavelengths much more than long (red) ones.\n',
    tools: [], finish: 'stop', input: 6, output: 27,
  },
  {
    name: 'gemini/function-call-response.json as one chunk', vendor: geminiChat, events: () => [{ data: JSON.stringify(readFixture('gemini/function-call-response.json')) }],
    text: '', tools: [{ name: 'customDivide', arguments: { numerator: 100, denominator: 2 } }], finish: 'tool_calls', input: 21, output: 6,
  },
];

interface ClientCase {
  style: string;
  client: ClientAdapter;
  summarize: (text: string) => StreamSummary;
  finishes: Record<FinishReason, string>;
  usage: (summary: StreamSummary) => [unknown, unknown];
  /** The style's total, when it has one. */
  total: (summary: StreamSummary) => unknown;
}

const CLIENTS: ClientCase[] = [
  {
    style: 'chat-completions', client: openAIChatAdapter, summarize: summarizeOpenAIStream,
    finishes: { stop: 'stop', tool_calls: 'tool_calls', length: 'length', content_filter: 'content_filter', other: 'stop' },
    usage: (s) => [s.usage?.prompt_tokens, s.usage?.completion_tokens],
    total: (s) => s.usage?.total_tokens,
  },
  {
    style: 'messages', client: anthropicChat, summarize: summarizeAnthropicStream,
    finishes: { stop: 'end_turn', tool_calls: 'tool_use', length: 'max_tokens', content_filter: 'refusal', other: 'end_turn' },
    usage: (s) => [s.usage?.input_tokens, s.usage?.output_tokens],
    total: (s) => Number(s.usage?.input_tokens) + Number(s.usage?.output_tokens),
  },
  {
    style: 'generate-content', client: geminiChat, summarize: summarizeGeminiStream,
    finishes: { stop: 'STOP', tool_calls: 'STOP', length: 'MAX_TOKENS', content_filter: 'SAFETY', other: 'OTHER' },
    usage: (s) => [s.usage?.promptTokenCount, s.usage?.candidatesTokenCount],
    total: (s) => s.usage?.totalTokenCount,
  },
  {
    style: 'responses', client: responsesAdapter, summarize: summarizeResponsesStream,
    finishes: { stop: 'completed', tool_calls: 'completed', length: 'incomplete', content_filter: 'incomplete', other: 'completed' },
    usage: (s) => [s.usage?.input_tokens, s.usage?.output_tokens],
    total: (s) => s.usage?.total_tokens,
  },
];

const PAIRS = STREAMS.flatMap((vendor) => CLIENTS.map((client) => ({ ...vendor, ...client, label: `${vendor.name} -> ${client.style}` })));

describe('streams across protocols', () => {
  test.each(PAIRS)('$label: the client sees the vendor\'s text, tool calls, finish and usage', (pair) => {
    const decoded = decodeStream(pair.vendor, pair.events());
    expect(decoded.done).toBe(true);
    const summary = pair.summarize(encodeStream(pair.client, decoded.events, createRequest({ includeUsage: true })));
    expect(summary.text).toBe(pair.text);
    expect(summary.toolCalls.map(({ name, arguments: args }) => ({ name, arguments: args }))).toEqual(pair.tools);
    expect(summary.toolCalls.every((call) => typeof call.id === 'string' && call.id.length > 0)).toBe(true);
    expect(summary.finish).toBe(pair.finishes[pair.finish]);
    expect(pair.usage(summary)).toEqual([pair.input, pair.output]);
    expect(pair.total(summary)).toBe(pair.input + pair.output);
  });
});

interface ResponseCase {
  name: string;
  vendor: VendorAdapter;
  text: string;
  tools: Array<{ name: string; arguments: unknown }>;
  finish: FinishReason;
  input: number;
  output: number;
}

const RESPONSES: ResponseCase[] = [
  { name: 'openai/chat-response.json', vendor: openAIChatAdapter, text: 'The image is a single white pixel on a transparent background.', tools: [], finish: 'stop', input: 104, output: 13 },
  { name: 'openai/chat-tools-response.json', vendor: openAIChatAdapter, text: '', tools: [{ name: 'get_weather', arguments: { city: 'Edinburgh', units: 'c' } }], finish: 'tool_calls', input: 82, output: 17 },
  { name: 'anthropic/messages-response.json', vendor: anthropicChat, text: 'The image is a single white pixel on a transparent background.', tools: [], finish: 'stop', input: 27, output: 16 },
  { name: 'gemini/generateContent-response.json', vendor: geminiChat, text: 'The image is a single white pixel on a transparent background.', tools: [], finish: 'stop', input: 281, output: 13 },
  { name: 'gemini/function-call-response.json', vendor: geminiChat, text: '', tools: [{ name: 'customDivide', arguments: { numerator: 100, denominator: 2 } }], finish: 'tool_calls', input: 21, output: 6 },
];

/** Reads what a client finally sees from a whole response of its style. */
function summarizeWhole(style: string, body: any): StreamSummary {
  if (style === 'chat-completions') {
    const message = body.choices[0].message;
    return {
      text: message.content ?? '',
      toolCalls: (message.tool_calls ?? []).map((c: any) => ({ id: c.id, name: c.function.name, arguments: JSON.parse(c.function.arguments) })),
      finish: body.choices[0].finish_reason,
      usage: body.usage,
    };
  }
  if (style === 'messages') {
    return {
      text: body.content.filter((b: any) => b.type === 'text').map((b: any) => b.text).join(''),
      toolCalls: body.content.filter((b: any) => b.type === 'tool_use').map((b: any) => ({ id: b.id, name: b.name, arguments: b.input })),
      finish: body.stop_reason,
      usage: body.usage,
    };
  }
  if (style === 'generate-content') {
    const parts = body.candidates[0].content.parts;
    return {
      text: parts.map((p: any) => p.text ?? '').join(''),
      toolCalls: parts.filter((p: any) => p.functionCall).map((p: any) => ({ id: p.functionCall.id, name: p.functionCall.name, arguments: p.functionCall.args })),
      finish: body.candidates[0].finishReason,
      usage: body.usageMetadata,
    };
  }
  return {
    text: body.output.filter((i: any) => i.type === 'message').map((i: any) => i.content[0].text).join(''),
    toolCalls: body.output.filter((i: any) => i.type === 'function_call').map((i: any) => ({ id: i.call_id, name: i.name, arguments: JSON.parse(i.arguments) })),
    finish: body.status,
    usage: body.usage,
  };
}

const WHOLE = RESPONSES.flatMap((vendor) => CLIENTS.map((client) => ({ ...vendor, ...client, label: `${vendor.name} -> ${client.style}` })));

describe('whole responses across protocols', () => {
  test.each(WHOLE)('$label: the client sees the vendor\'s text, tool calls, finish and usage', (pair) => {
    const answer = pair.vendor.decodeResponse(readFixture(pair.name));
    const summary = summarizeWhole(pair.style, pair.client.encodeResponse(answer, META, createRequest({ stream: false })));
    expect(summary.text).toBe(pair.text);
    expect(summary.toolCalls.map(({ name, arguments: args }) => ({ name, arguments: args }))).toEqual(pair.tools);
    expect(summary.finish).toBe(pair.finishes[pair.finish]);
    expect(pair.usage(summary)).toEqual([pair.input, pair.output]);
  });
});
