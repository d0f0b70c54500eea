/**
 * The Converse translator, table-driven: canonical requests to Converse bodies and paths (stream false
 * and true), Converse answers and event streams to canonical, and Bedrock errors to the gateway's.
 */
import { describe, expect, test } from 'vitest';
import { bedrockChat } from '../../../src/protocols/bedrock/index.ts';
import { decodeConverseError } from '../../../src/protocols/bedrock/decode-error.ts';
import { createConverseStream, encodeStreamMessage } from '../../../src/protocols/bedrock/simulator/write-converse.ts';
import type { CanonicalRequest, StreamEvent } from '../../../src/translate/canonical.ts';
import { createFieldPolicy } from '../../../src/translate/field-policy.ts';

function encode(request: Partial<CanonicalRequest>, model = 'anthropic.claude-3-haiku-20240307-v1:0') {
  const policy = createFieldPolicy(false);
  const call = bedrockChat.encodeRequest({ messages: [], stream: false, includeUsage: false, ...request }, { model, policy, defaultMaxTokens: 1024 });
  return { ...call, dropped: policy.dropped };
}

const USER = { role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] };

describe('canonical -> Converse request', () => {
  test.each([
    [false, '/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse'],
    [true, '/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse-stream'],
  ])('stream %s: the path names the encoded model id and the action', (stream, path) => {
    const call = encode({ stream, messages: [USER] });
    expect(call.path).toBe(path);
    expect(call.headers).toEqual({ accept: stream ? 'application/vnd.amazon.eventstream' : 'application/json' });
  });

  test('an inference-profile ARN keeps its slash escaped in the path', () => {
    expect(encode({ messages: [USER] }, "arn:aws:bedrock:us-east-1:1:inference-profile/us.x-v1:0(a)").path)
      .toBe('/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A1%3Ainference-profile%2Fus.x-v1%3A0%28a%29/converse');
  });

  test.each([
    ['system and inference fields', { system: 'S', maxTokens: 9, temperature: 0.2, topP: 0.5, stopSequences: ['x'] }, { system: [{ text: 'S' }], inferenceConfig: { maxTokens: 9, temperature: 0.2, topP: 0.5, stopSequences: ['x'] } }],
    ['tool choice required', { tools: [{ name: 't', parameters: { properties: {} } }], toolChoice: { type: 'required' } }, { toolConfig: { tools: [{ toolSpec: { name: 't', inputSchema: { json: { type: 'object', properties: {} } } } }], toolChoice: { any: {} } } }],
    ['tool choice by name', { tools: [{ name: 't', description: 'd', parameters: {} }], toolChoice: { type: 'tool', name: 't' } }, { toolConfig: { tools: [{ toolSpec: { name: 't', description: 'd', inputSchema: { json: { type: 'object' } } } }], toolChoice: { tool: { name: 't' } } } }],
    ['tool choice none without tool turns', { tools: [{ name: 't', parameters: {} }], toolChoice: { type: 'none' } }, {}],
    ['cache breakpoints', { system: 'S', systemCacheControl: { type: 'ephemeral' } }, { system: [{ text: 'S' }, { cachePoint: { type: 'default' } }] }],
  ] as const)('%s', (_name, fields, expected) => {
    const { body } = encode({ messages: [USER], ...(fields as Partial<CanonicalRequest>) });
    expect(body).toEqual({ messages: [{ role: 'user', content: [{ text: 'hi' }] }], ...expected });
  });

  test('tool calls and results: toolUse with parsed input, toolResult first in its user turn, error status, same-role turns merged', () => {
    const { body } = encode({
      messages: [
        USER,
        { role: 'assistant', content: [{ type: 'text', text: 'calling' }, { type: 'tool_call', id: 'c1', name: 't', arguments: '{"a":1}' }] },
        { role: 'user', content: [{ type: 'text', text: 'and' }] },
        { role: 'user', content: [{ type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'boom' }], isError: true }] },
      ],
    });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ text: 'hi' }] },
      { role: 'assistant', content: [{ text: 'calling' }, { toolUse: { toolUseId: 'c1', name: 't', input: { a: 1 } } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: 'c1', content: [{ text: 'boom' }], status: 'error' } }, { text: 'and' }] },
    ]);
  });

  test('an inline image becomes image bytes; an image URL is a 400', () => {
    const image = (source: any) => encode({ messages: [{ role: 'user', content: [{ type: 'image', source }] }] });
    expect((image({ kind: 'base64', mediaType: 'image/png', data: 'AAAA' }).body as any).messages[0].content).toEqual([{ image: { format: 'png', source: { bytes: 'AAAA' } } }]);
    expect(() => image({ kind: 'url', url: 'https://x/y.png' })).toThrow(expect.objectContaining({ status: 400, code: 'unsupported_parameter' }));
  });

  test('top-k, penalties, seed, end user and JSON output are dropped by the policy', () => {
    const { body, dropped } = encode({ messages: [USER], topK: 3, presencePenalty: 1, seed: 2, user: 'u', responseFormat: { type: 'json_object' } });
    expect(dropped).toEqual(['topK', 'presencePenalty', 'seed', 'user', 'responseFormat']);
    expect(Object.keys(body)).toEqual(['messages']);
  });
});

describe('Converse answer -> canonical', () => {
  test.each([
    ['end_turn', 'stop'], ['stop_sequence', 'stop'], ['max_tokens', 'length'], ['tool_use', 'tool_calls'], ['guardrail_intervened', 'content_filter'], ['something_new', 'other'],
  ])('stopReason %s is %s', (stopReason, finish) => {
    const body = { output: { message: { role: 'assistant', content: [{ text: 'x' }] } }, stopReason, usage: {} };
    expect(bedrockChat.decodeResponse(body).finishReason).toBe(finish);
  });

  test('text, toolUse and usage with cache counts folded into input', () => {
    const body = {
      output: { message: { role: 'assistant', content: [{ text: 'a' }, { reasoningContent: {} }, { toolUse: { toolUseId: 't1', name: 'f', input: { q: 1 } } }] } },
      stopReason: 'tool_use',
      usage: { inputTokens: 5, outputTokens: 2, totalTokens: 17, cacheReadInputTokens: 4, cacheWriteInputTokens: 6 },
    };
    expect(bedrockChat.decodeResponse(body)).toEqual({
      content: [{ type: 'text', text: 'a' }, { type: 'tool_call', id: 't1', name: 'f', arguments: '{"q":1}' }],
      finishReason: 'tool_calls',
      usage: { inputTokens: 15, outputTokens: 2, totalTokens: 17, cachedInputTokens: 4, cacheCreationInputTokens: 6 },
    });
  });

  test('an answer without output.message is a 502', () => {
    expect(() => bedrockChat.decodeResponse({ message: 'hi' })).toThrow(expect.objectContaining({ status: 502, code: 'upstream_invalid_response' }));
  });
});

/** Decodes event-stream bytes fed in `size`-byte reads. */
function decodeStream(bytes: Buffer, size: number): { events: StreamEvent[]; done: boolean } {
  const decoder = bedrockChat.createStreamDecoder();
  const events: StreamEvent[] = [];
  const parser = bedrockChat.createStreamParser!((event) => events.push(...decoder.decode(event)));
  for (let i = 0; i < bytes.length; i += size) parser.feed(bytes.subarray(i, i + size));
  parser.end();
  return { events, done: decoder.done };
}

describe('Converse event stream -> canonical events', () => {
  const reply = { text: 'Hi there', tools: [{ id: 'tu1', name: 'f', input: { city: 'Oslo' } }], stopReason: 'tool_use' as const, inputTokens: 3, outputTokens: 4, cacheRead: 1, cacheWrite: 0 };
  const bytes = Buffer.concat(createConverseStream(reply));

  test.each([1, 7, 100_000])('read %i bytes at a time: text, tool call, finish, usage, done', (size) => {
    const { events, done } = decodeStream(bytes, size);
    expect(done).toBe(true);
    expect(events.filter((e) => e.type === 'text').map((e: any) => e.text).join('')).toBe('Hi there');
    expect(events.find((e) => e.type === 'tool_call_start')).toEqual({ type: 'tool_call_start', index: 0, id: 'tu1', name: 'f' });
    expect(JSON.parse(events.filter((e) => e.type === 'tool_call_delta').map((e: any) => e.arguments).join(''))).toEqual({ city: 'Oslo' });
    expect(events.filter((e) => e.type === 'finish' || e.type === 'usage')).toEqual([
      { type: 'finish', reason: 'tool_calls' },
      { type: 'usage', usage: { inputTokens: 4, outputTokens: 4, totalTokens: 8, cachedInputTokens: 1, cacheCreationInputTokens: 0 } },
    ]);
  });

  test('a stream cut before messageStop is not done; one cut inside a message throws 502', () => {
    const messages = createConverseStream(reply);
    expect(decodeStream(Buffer.concat(messages.slice(0, 3)), 50).done).toBe(false);
    const cut = Buffer.concat(messages).subarray(0, 30);
    expect(() => decodeStream(cut, 50)).toThrow(expect.objectContaining({ status: 502, code: 'upstream_stream_failed' }));
  });

  test('a message with a broken checksum or an absurd length is a 502', () => {
    const message = Buffer.from(encodeStreamMessage('messageStart', { role: 'assistant' }));
    message[message.length - 1] ^= 0xff;
    expect(() => decodeStream(message, 100)).toThrow(expect.objectContaining({ status: 502, code: 'upstream_invalid_response' }));
    expect(() => decodeStream(Buffer.from('{"message":"not an event stream"}'), 100)).toThrow(expect.objectContaining({ status: 502 }));
  });

  test.each([
    ['throttlingException', 429], ['modelStreamErrorException', 502], ['validationException', 400], ['internalServerException', 500], ['serviceUnavailableException', 503],
  ])('the in-stream %s is an error event with status %i', (name, status) => {
    const { events } = decodeStream(Buffer.from(encodeStreamMessage(name, { message: 'm' }, true)), 100);
    expect(events).toEqual([{ type: 'error', error: expect.objectContaining({ status, message: 'm', authFailure: false }) }]);
  });
});

describe('Bedrock errors', () => {
  test.each([
    ['ValidationException', 400, 400, false], ['ThrottlingException', 429, 429, false], ['AccessDeniedException', 403, 403, true],
    ['UnrecognizedClientException', 403, 403, true], ['ResourceNotFoundException', 404, 404, false], ['ModelTimeoutException', 408, 504, false],
    ['ServiceUnavailableException', 503, 503, false], ['ModelNotReadyException', 429, 503, false],
  ] as const)('%s (HTTP %i) is status %i, auth failure %s', (type, status, expected, auth) => {
    const header = { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` };
    expect(decodeConverseError(status, { message: 'm' }, header)).toEqual({ status: expected, type, message: 'm', authFailure: auth });
  });

  test('a vendor 5xx naming a client-side exception stays a 5xx (the gateway makes no client error of it)', () => {
    expect(decodeConverseError(500, { __type: 'com.amazon#ThrottlingException', message: 'm' })).toMatchObject({ status: 500, type: 'ThrottlingException' });
    expect(decodeConverseError(577, { message: 'm' }, { 'x-amzn-errortype': 'ValidationException' })).toMatchObject({ status: 577, type: 'ValidationException' });
    expect(decodeConverseError(500, { message: 'm' }, { 'x-amzn-errortype': 'ModelStreamErrorException' })).toMatchObject({ status: 502 });
  });

  test('without the header: the body __type, else the status names the exception', () => {
    expect(bedrockChat.decodeError(400, { __type: 'com.amazon.coral#ThrottlingException', message: 'm' })).toMatchObject({ status: 429, type: 'ThrottlingException' });
    expect(bedrockChat.decodeError(503, 'down')).toMatchObject({ status: 503, type: 'ServiceUnavailableException', message: 'down' });
  });
});
