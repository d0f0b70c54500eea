/**
 * Prompt caching end to end with the official SDKs: `cache_control` reaches a messages-protocol vendor from
 * chat-completions content parts and from the messages style; `chat.cache: auto` places breakpoints for a
 * client that cannot; cached-token counts come back in each style's own terms and in the usage event
 * (`cachedInputTokens`, `cacheCreationInputTokens`).
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;
const MARK = { type: 'ephemeral' as const };
const SYSTEM = 'You are a careful assistant who reads the whole manual first';
const CACHED = 3;

beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => ({
    ...config,
    models: {
      ...config.models,
      'sim-anthropic-auto': { ...config.models['sim-anthropic-chat'], id: 'sim-anthropic-auto', chat: { defaultMaxTokens: 100, strict: false, cache: 'auto' } },
    },
  }), { simulators: { openai: { cachedInputTokens: CACHED }, gemini: { cachedInputTokens: CACHED } } });
});
afterAll(() => gw.close());
beforeEach(() => {
  gw.sims.anthropic.reset();
  gw.sims.openai.reset();
  gw.sims.gemini.reset();
});

const openai = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
const anthropic = () => new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
const google = () => new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });
const lastVendorBody = (vendor: 'anthropic' | 'openai' | 'gemini') => JSON.parse(gw.sims[vendor].received.at(-1)!.body.toString());

describe('chat-completions client, messages-protocol vendor', () => {
  const send = (stream: boolean) => {
    const messages = [
      { role: 'system', content: [{ type: 'text', text: SYSTEM, cache_control: MARK }] },
      { role: 'user', content: [{ type: 'text', text: `question ${stream}`, cache_control: MARK }] },
    ] as unknown as OpenAI.ChatCompletionMessageParam[];
    return stream
      ? openai().chat.completions.stream({ model: 'sim-anthropic-chat', messages, stream_options: { include_usage: true } }).finalChatCompletion()
      : openai().chat.completions.create({ model: 'sim-anthropic-chat', messages });
  };

  test.each([false, true])('cache_control on content parts reaches the vendor; the cached count comes back inside prompt_tokens (stream %s)', async (stream) => {
    const firstEvent = gw.nextEvent();
    const first = await send(stream);
    const body = lastVendorBody('anthropic');
    expect(body.system).toEqual([{ type: 'text', text: SYSTEM, cache_control: MARK }]);
    expect(body.messages[0].content).toEqual([{ type: 'text', text: `question ${stream}`, cache_control: MARK }]);
    const prefix = 11 + 2;
    expect(first.usage).toMatchObject({ prompt_tokens: prefix, prompt_tokens_details: { cached_tokens: 0 } });
    expect((await firstEvent).usage).toMatchObject({ inputTokens: prefix, cacheCreationInputTokens: prefix, cachedInputTokens: 0 });
    const secondEvent = gw.nextEvent();
    const second = await send(stream);
    expect(second.usage).toMatchObject({ prompt_tokens: prefix, prompt_tokens_details: { cached_tokens: prefix } });
    expect(second.usage!.total_tokens).toBe(second.usage!.prompt_tokens + second.usage!.completion_tokens);
    expect((await secondEvent).usage).toMatchObject({ inputTokens: prefix, cachedInputTokens: prefix, cacheCreationInputTokens: 0 });
  });
});

describe('chat.cache: auto', () => {
  test('a generate-content client gets breakpoints placed on system, tools and its last turn; the cache read comes back as cachedContentTokenCount', async () => {
    const request = {
      model: 'sim-anthropic-auto',
      contents: [{ role: 'user', parts: [{ text: 'auto cached question' }] }],
      config: { systemInstruction: SYSTEM, tools: [{ functionDeclarations: [{ name: 'lookup', description: 'Look up', parametersJsonSchema: { type: 'object', properties: {} } }] }], toolConfig: { functionCallingConfig: { mode: 'NONE' as never } } },
    };
    await google().models.generateContent(request);
    const body = lastVendorBody('anthropic');
    expect(body.system).toEqual([{ type: 'text', text: SYSTEM, cache_control: MARK }]);
    expect(body.tools.at(-1).cache_control).toEqual(MARK);
    expect(body.messages.at(-1).content.at(-1)).toMatchObject({ type: 'text', text: 'auto cached question', cache_control: MARK });
    let usage: any;
    for await (const chunk of await google().models.generateContentStream(request)) usage = chunk.usageMetadata ?? usage;
    expect(usage).toMatchObject({ promptTokenCount: 11 + 3, cachedContentTokenCount: 11 + 3 });
    expect(usage.totalTokenCount).toBe(usage.promptTokenCount + usage.candidatesTokenCount);
  });
});

describe('vendors with automatic caches, messages and chat-completions clients', () => {
  test.each([['openai', 'sim-openai-chat'], ['gemini', 'sim-gemini-chat']] as const)('messages client on a %s vendor: input_tokens excludes cache_read_input_tokens, streamed and not', async (vendor, model) => {
    const params = { model, max_tokens: 100, messages: [{ role: 'user' as const, content: 'five words in this prompt' }] };
    const whole = await anthropic().messages.create(params);
    expect(whole.usage).toMatchObject({ input_tokens: 5 - CACHED, cache_read_input_tokens: CACHED, cache_creation_input_tokens: 0 });
    const event = gw.nextEvent();
    const streamed = await anthropic().messages.stream(params).finalMessage();
    expect(streamed.usage).toMatchObject({ input_tokens: 5 - CACHED, cache_read_input_tokens: CACHED });
    expect((await event).usage).toMatchObject({ inputTokens: 5, cachedInputTokens: CACHED });
    expect(gw.sims[vendor].received).toHaveLength(2);
  });

  test('cache_control sent to a vendor without breakpoints is dropped and named in x-gateway-dropped-fields', async () => {
    const { response } = await anthropic().messages.create({
      model: 'sim-gemini-chat', max_tokens: 100, messages: [{ role: 'user', content: [{ type: 'text', text: 'hello', cache_control: MARK }] }],
    }).withResponse();
    expect(response.headers.get('x-gateway-dropped-fields')).toBe('cache_control');
    expect(gw.sims.gemini.received.at(-1)!.body.toString()).not.toContain('cache');
  });

  test('chat-completions client on a gemini vendor: cachedContentTokenCount becomes prompt_tokens_details.cached_tokens (stream)', async () => {
    const completion = await openai().chat.completions.stream({ model: 'sim-gemini-chat', messages: [{ role: 'user', content: 'five words in this prompt' }], stream_options: { include_usage: true } }).finalChatCompletion();
    expect(completion.usage).toMatchObject({ prompt_tokens: 5, prompt_tokens_details: { cached_tokens: CACHED } });
  });
});

describe('messages client, messages-protocol vendor (passthrough)', () => {
  test('cache_control passes through and the usage event carries the cache write, then the read', async () => {
    const params = { model: 'sim-anthropic-chat', max_tokens: 100, system: [{ type: 'text' as const, text: SYSTEM, cache_control: MARK }], messages: [{ role: 'user' as const, content: 'passthrough question' }] };
    const firstEvent = gw.nextEvent();
    const first = await anthropic().messages.create(params);
    expect(lastVendorBody('anthropic').system).toEqual(params.system);
    expect(first.usage).toMatchObject({ input_tokens: 2, cache_creation_input_tokens: 11 });
    expect((await firstEvent).usage).toMatchObject({ inputTokens: 13, cacheCreationInputTokens: 11, cachedInputTokens: 0 });
    const secondEvent = gw.nextEvent();
    await anthropic().messages.stream(params).finalMessage();
    expect((await secondEvent).usage).toMatchObject({ inputTokens: 13, cachedInputTokens: 11, cacheCreationInputTokens: 0, totalTokens: 13 + 3 });
  });
});
