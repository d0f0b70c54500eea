import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());
beforeEach(() => gw.sims.anthropic.reset());

const weather = tool({
  description: 'The weather of a city',
  inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
  execute: async ({ city }) => ({ city, temp_c: 12, sky: 'rain' }),
});

/** What the Anthropic simulator received, request by request: each message as role + block summaries. */
function readVendorTurns(): string[][] {
  return gw.sims.anthropic.received.map((request) => JSON.parse(request.body.toString()).messages.map((m: any) =>
    `${m.role}: ${(typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content)
      .map((b: any) => (b.type === 'text' ? b.text : b.type === 'tool_use' ? `tool_use ${b.name}` : `tool_result ${b.content}`)).join(' | ')}`));
}

describe('the AI SDK\'s Responses provider in a tool loop against claude-sonnet-4-6 (item_reference)', () => {
  /** The request bodies the AI SDK sent to the gateway. */
  const sent: any[] = [];
  const provider = () => createOpenAI({
    baseURL: `${gw.url}/v1`,
    apiKey: gw.key,
    fetch: (url, init) => {
      sent.push(JSON.parse(String(init?.body)));
      return fetch(url, init);
    },
  });
  beforeEach(() => {
    sent.length = 0;
  });

  test.each([['generateText', false], ['streamText', true]] as const)('%s: the second step resolves the referenced items into the vendor history', async (_name, streamed) => {
    const options = { model: provider().responses('claude-sonnet-4-6'), tools: { weather }, stopWhen: stepCountIs(3), prompt: 'Paris' };
    const result = streamed ? streamText({ ...options, maxRetries: 0 }) : await generateText({ ...options, maxRetries: 0 });
    const text = await result.text;
    const steps = await result.steps;
    expect(steps).toHaveLength(2);
    expect(steps[0].toolCalls.map((call) => [call.toolName, call.input])).toEqual([['weather', { city: 'Paris' }]]);
    expect(text).toBe('Echo: {"city":"Paris","temp_c":12,"sky":"rain"}');
    const itemId = (steps[0].content[0] as any).providerMetadata.openai.itemId;
    expect(sent[1].input).toContainEqual({ type: 'item_reference', id: itemId });
    const turns = readVendorTurns();
    expect(turns).toHaveLength(2);
    expect(turns[0]).toEqual(['user: Paris']);
    expect(turns[1]).toEqual([
      'user: Paris',
      'assistant: Calling weather. | tool_use weather',
      'user: tool_result {"city":"Paris","temp_c":12,"sky":"rain"}',
    ]);
  });
});
