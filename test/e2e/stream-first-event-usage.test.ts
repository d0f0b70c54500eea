import Anthropic from '@anthropic-ai/sdk';
import { ChatAnthropic } from '@langchain/anthropic';
import type { AIMessageChunk } from '@langchain/core/messages';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { estimateTokens } from '../../src/spend/estimate-tokens.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());
beforeEach(() => {
  gw.sims.openai.reset();
  gw.sims.gemini.reset();
});

const PROMPT = 'Tell me why the sky is blue today';

/** Streams through LangChain's ChatAnthropic and sums its chunks' usage as LangChain does. */
async function streamWithLangChain(model: string): Promise<AIMessageChunk> {
  const chat = new ChatAnthropic({ model, apiKey: gw.key, anthropicApiUrl: gw.url, maxRetries: 0, streamUsage: true });
  let total: AIMessageChunk | undefined;
  for await (const chunk of await chat.stream(PROMPT)) total = total ? total.concat(chunk) : chunk;
  return total!;
}

describe('a messages stream translated from another protocol opens with the input count', () => {
  test('Gemini: message_start carries the vendor\'s promptTokenCount, before the text; LangChain reports the vendor\'s counts', async () => {
    const event = gw.nextEvent();
    const total = await streamWithLangChain('sim-gemini-chat');
    const usage = (await event).usage;
    const vendorBody = JSON.parse(gw.sims.gemini.received.at(-1)!.body.toString());
    expect(vendorBody.contents.at(-1).parts[0].text).toBe(PROMPT);
    expect(usage.estimated).toBeUndefined();
    expect(usage.inputTokens).toBe(PROMPT.split(' ').length);
    expect(total.usage_metadata).toMatchObject({ input_tokens: usage.inputTokens, output_tokens: usage.outputTokens });
    expect(total.content).toBe(`Echo: ${PROMPT}`);
  });

  test('Gemini, raw: the first event is message_start with the input count and the closing message_delta repeats it', async () => {
    const events: any[] = [];
    const stream = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 }).messages.stream({ model: 'sim-gemini-chat', max_tokens: 100, messages: [{ role: 'user', content: PROMPT }] });
    stream.on('streamEvent', (e) => events.push(structuredClone(e)));
    await stream.finalMessage();
    expect(events[0]).toMatchObject({ type: 'message_start', message: { usage: { input_tokens: 8, output_tokens: 0 } } });
    expect(events.find((e) => e.type === 'message_delta').usage).toMatchObject({ input_tokens: 8, output_tokens: 9 });
  });

  test('OpenAI protocol (usage only at the end): message_start carries the gateway\'s estimate, message_delta the real count', async () => {
    const events: any[] = [];
    const stream = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 }).messages.stream({ model: 'sim-openai-chat', max_tokens: 100, messages: [{ role: 'user', content: PROMPT }] });
    stream.on('streamEvent', (e) => events.push(structuredClone(e)));
    const final = await stream.finalMessage();
    const vendorBody = JSON.parse(gw.sims.openai.received.at(-1)!.body.toString());
    expect(vendorBody.stream_options).toEqual({ include_usage: true });
    expect(events[0]).toMatchObject({ type: 'message_start', message: { usage: { input_tokens: estimateTokens(Buffer.byteLength(PROMPT)), output_tokens: 0 } } });
    expect(events.find((e) => e.type === 'message_delta').usage).toMatchObject({ input_tokens: 8, output_tokens: 9 });
    expect(final.usage).toMatchObject({ input_tokens: 8, output_tokens: 9 });
  });

  test('OpenAI protocol through LangChain: the input count is the estimate (never 0), the output count the vendor\'s', async () => {
    const total = await streamWithLangChain('sim-openai-chat');
    expect(total.usage_metadata).toMatchObject({ input_tokens: estimateTokens(Buffer.byteLength(PROMPT)), output_tokens: 9 });
    expect(total.content).toBe(`Echo: ${PROMPT}`);
  });
});
