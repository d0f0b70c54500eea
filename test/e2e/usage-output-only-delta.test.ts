/**
 * A messages-protocol vendor whose `message_delta` usage carries `output_tokens` alone (Anthropic's
 * documented example shape, the simulator's `messageDeltaUsage: 'output-only'`): every client style's
 * streamed total is input + output, not input + 1 from `message_start`, and so is the gateway's usage event.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;
const MODEL = 'sim-anthropic-chat';
const PROMPT = 'count my tokens please';
const INPUT = 4;
const OUTPUT = 5;

beforeAll(async () => {
  gw = await startTestGateway(undefined, { simulators: { anthropic: { messageDeltaUsage: 'output-only' } } });
});
afterAll(() => gw.close());
beforeEach(() => gw.sims.anthropic.reset());

/** The vendor was asked for a stream and answered with `output_tokens` alone in `message_delta`. */
function expectStreamedVendorTurn(): void {
  const body = JSON.parse(gw.sims.anthropic.received.at(-1)!.body.toString());
  expect(body).toMatchObject({ model: 'claude-sonnet-4-6', stream: true });
  const content = body.messages.at(-1).content;
  expect(typeof content === 'string' ? content : content.map((block: { text: string }) => block.text).join('')).toBe(PROMPT);
}

async function expectUsageEvent(event: Promise<import('../../src/runtime/types.ts').UsageEvent>): Promise<void> {
  const { usage } = await event;
  expect(usage).toMatchObject({ inputTokens: INPUT, outputTokens: OUTPUT, totalTokens: INPUT + OUTPUT });
  expect(usage.estimated).toBeUndefined();
}

describe('streamed usage from a message_delta with output_tokens alone', () => {
  test('chat-completions client (openai SDK): total_tokens is input + output', async () => {
    const event = gw.nextEvent();
    const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    const stream = await openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: PROMPT }], stream: true, stream_options: { include_usage: true } });
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) usage = chunk.usage ?? usage;
    expect(usage).toMatchObject({ prompt_tokens: INPUT, completion_tokens: OUTPUT, total_tokens: INPUT + OUTPUT });
    expectStreamedVendorTurn();
    await expectUsageEvent(event);
  });

  test('responses client (openai SDK): total_tokens is input + output', async () => {
    const event = gw.nextEvent();
    const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    const final = await openai.responses.stream({ model: MODEL, input: PROMPT }).finalResponse();
    expect(final.usage).toMatchObject({ input_tokens: INPUT, output_tokens: OUTPUT, total_tokens: INPUT + OUTPUT });
    expectStreamedVendorTurn();
    await expectUsageEvent(event);
  });

  test('generate-content client (@google/genai): totalTokenCount is input + output', async () => {
    const event = gw.nextEvent();
    const google = new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });
    let usage: { promptTokenCount?: number; candidatesTokenCount?: number; totalTokenCount?: number } | undefined;
    for await (const chunk of await google.models.generateContentStream({ model: MODEL, contents: PROMPT })) usage = chunk.usageMetadata ?? usage;
    expect(usage).toMatchObject({ promptTokenCount: INPUT, candidatesTokenCount: OUTPUT, totalTokenCount: INPUT + OUTPUT });
    expectStreamedVendorTurn();
    await expectUsageEvent(event);
  });

  test('messages client (@anthropic-ai/sdk, passthrough): the usage event totals input + output', async () => {
    const event = gw.nextEvent();
    const anthropic = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
    const message = await anthropic.messages.stream({ model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: PROMPT }] }).finalMessage();
    expect(message.usage).toMatchObject({ input_tokens: INPUT, output_tokens: OUTPUT });
    expectStreamedVendorTurn();
    await expectUsageEvent(event);
  });
});
