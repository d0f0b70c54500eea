/**
 * Every protocol's stream decoder takes a verified stream with odd values anywhere in its events (wrong types,
 * prototype names, an object whose `valueOf` and `toString` are null, which `Number()` and `String()` throw on)
 * and either decodes it or refuses it with a GatewayError; so do the answer and error decoders (the vendor's bad data: a 502), never another throw
 * (which the gateway answers as its own failure, a 500).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.ts';
import { anthropicAdapter } from '../../src/protocols/anthropic/index.ts';
import { bedrockProtocol } from '../../src/protocols/bedrock/index.ts';
import { geminiAdapter } from '../../src/protocols/gemini/index.ts';
import { openaiAdapter } from '../../src/protocols/openai/index.ts';
import { createSseParser, type SseEvent } from '../../src/sse/parse.ts';
import type { StreamDecoder, VendorAdapter } from '../../src/translate/adapter.ts';
import { applyJsonChanges, arbitraryJsonChange, type JsonChange } from '../fuzz/arbitraries-json-changes.ts';
import { VENDOR_FIXTURES } from '../helpers/vendor-fixtures.ts';

/** The events of a verified SSE transcript. */
function readSse(name: string): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createSseParser((event) => events.push(event));
  parser.feed(readFileSync(`${VENDOR_FIXTURES}/${name}`, 'utf8'));
  parser.end();
  return events;
}

/** A Converse stream with a tool call, text and reasoning, as its event-stream messages decode (name, payload). */
const CONVERSE_EVENTS: SseEvent[] = [
  { event: 'messageStart', data: '{"role":"assistant"}' },
  { event: 'contentBlockDelta', data: '{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"thinking"}}}' },
  { event: 'contentBlockDelta', data: '{"contentBlockIndex":0,"delta":{"reasoningContent":{"signature":"sig"}}}' },
  { event: 'contentBlockDelta', data: '{"contentBlockIndex":1,"delta":{"text":"Hello"}}' },
  { event: 'contentBlockStart', data: '{"contentBlockIndex":2,"start":{"toolUse":{"toolUseId":"t1","name":"get_weather"}}}' },
  { event: 'contentBlockDelta', data: '{"contentBlockIndex":2,"delta":{"toolUse":{"input":"{\\"city\\":\\"Paris\\"}"}}}' },
  { event: 'contentBlockStop', data: '{"contentBlockIndex":2}' },
  { event: 'messageStop', data: '{"stopReason":"tool_use"}' },
  { event: 'metadata', data: '{"usage":{"inputTokens":10,"outputTokens":5,"totalTokens":15},"metrics":{"latencyMs":100}}' },
];

const STREAMS: [string, () => StreamDecoder, SseEvent[]][] = [
  ['anthropic messages', anthropicAdapter.chat!.createStreamDecoder, readSse('anthropic/messages-stream.sse')],
  ['anthropic messages with tools', anthropicAdapter.chat!.createStreamDecoder, readSse('anthropic/messages-tools-stream.sse')],
  ['openai chat', openaiAdapter.chat!.createStreamDecoder, readSse('openai/chat-stream.sse')],
  ['openai chat with tools', openaiAdapter.chat!.createStreamDecoder, readSse('openai/chat-tools-stream.sse')],
  ['gemini', geminiAdapter.chat!.createStreamDecoder, readSse('gemini/streamGenerateContent.sse')],
  ['bedrock converse', bedrockProtocol.chat!.createStreamDecoder, CONVERSE_EVENTS],
];

/** `events` with `changes` applied to the JSON of the event at `at` (modulo their count). */
function changeEvent(events: SseEvent[], at: number, changes: JsonChange[]): SseEvent[] {
  const index = at % events.length;
  return events.map((event, i) => {
    if (i !== index) return event;
    let json: unknown;
    try {
      json = JSON.parse(event.data);
    } catch {
      return event;
    }
    return { ...event, data: JSON.stringify(applyJsonChanges(json, changes)) ?? 'null' };
  });
}

const readJson = (name: string): unknown => JSON.parse(readFileSync(`${VENDOR_FIXTURES}/${name}`, 'utf8'));

/** A Converse answer with reasoning, text and a tool call. */
const CONVERSE_ANSWER = {
  output: { message: { role: 'assistant', content: [{ reasoningContent: { reasoningText: { text: 't', signature: 's' } } }, { text: 'Hello' }, { toolUse: { toolUseId: 't1', name: 'f', input: { a: 1 } } }] } },
  stopReason: 'tool_use',
  usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
};

const ANSWERS: [string, VendorAdapter, unknown[], unknown[]][] = [
  ['anthropic', anthropicAdapter.chat!, [readJson('anthropic/messages-response.json')], [readJson('anthropic/error-401.json'), readJson('anthropic/error-overloaded-529.json')]],
  ['openai', openaiAdapter.chat!, [readJson('openai/chat-response.json'), readJson('openai/chat-tools-response.json')], [{ error: { message: 'm', type: 't', param: 'p', code: 'c' } }]],
  ['gemini', geminiAdapter.chat!, [readJson('gemini/generateContent-response.json'), readJson('gemini/function-call-response.json')], [readJson('gemini/error-400.json'), readJson('gemini/error-404.json')]],
  ['bedrock', bedrockProtocol.chat!, [CONVERSE_ANSWER], [{ message: 'm', __type: 'ValidationException' }]],
];

/** Runs `decode`: it may return anything or throw a GatewayError, nothing else. */
function expectDecodedOrRefused(decode: () => unknown): void {
  try {
    decode();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
  }
}

describe('answer and error decoders given odd values', () => {
  it.each(ANSWERS)('%s: decodes an answer or an error body, or refuses with a GatewayError, never another throw', (_, adapter, answers, errors) => {
    fc.assert(
      fc.property(fc.nat(), fc.array(arbitraryJsonChange, { minLength: 1, maxLength: 3 }), fc.constantFrom(400, 401, 429, 500, 529), (pick, changes, status) => {
        expectDecodedOrRefused(() => adapter.decodeResponse(applyJsonChanges(structuredClone(answers[pick % answers.length]), changes)));
        expectDecodedOrRefused(() => adapter.decodeError(status, applyJsonChanges(structuredClone(errors[pick % errors.length]), changes)));
      }),
      { numRuns: 400 },
    );
  });
});

describe('stream decoders given odd values', () => {
  it.each(STREAMS)('%s: decodes or refuses with a GatewayError, never another throw', (_, createDecoder, events) => {
    fc.assert(
      fc.property(fc.nat(), fc.array(arbitraryJsonChange, { minLength: 1, maxLength: 3 }), (at, changes) => {
        const decoder = createDecoder();
        try {
          for (const event of changeEvent(events, at, changes)) decoder.decode(event);
        } catch (error) {
          expect(error).toBeInstanceOf(GatewayError);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a block index that is an object with a null valueOf is a key like any other (it threw in Number())', () => {
    const odd = '{"toString":null,"valueOf":null}';
    const anthropic = anthropicAdapter.chat!.createStreamDecoder();
    expect(anthropic.decode({ event: 'content_block_start', data: `{"type":"content_block_start","index":${odd},"content_block":{"type":"tool_use","id":"t1","name":"f","input":{}}}` })).toEqual([
      { type: 'tool_call_start', index: 0, id: 't1', name: 'f' },
    ]);
    expect(anthropic.decode({ event: 'content_block_delta', data: `{"type":"content_block_delta","index":${odd},"delta":{"type":"input_json_delta","partial_json":"{}"}}` })).toEqual([
      { type: 'tool_call_delta', index: 0, arguments: '{}' },
    ]);
    const converse = bedrockProtocol.chat!.createStreamDecoder();
    expect(converse.decode({ event: 'contentBlockStart', data: `{"contentBlockIndex":${odd},"start":{"toolUse":{"toolUseId":"t1","name":"f"}}}` })).toEqual([
      { type: 'tool_call_start', index: 0, id: 't1', name: 'f' },
    ]);
    expect(converse.decode({ event: 'contentBlockDelta', data: `{"contentBlockIndex":${odd},"delta":{"toolUse":{"input":"{}"}}}` })).toEqual([
      { type: 'tool_call_delta', index: 0, arguments: '{}' },
    ]);
  });
});
