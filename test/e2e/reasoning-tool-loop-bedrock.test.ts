/**
 * The reasoning tool loop against the Bedrock Converse protocol: each official SDK (chat-completions,
 * responses, messages, generate-content), plain and streamed, asks Claude on Bedrock with reasoning on;
 * the client sees the thinking, and the turn it sends back reaches Bedrock with the `reasoningContent`
 * block and the signature Bedrock made (the simulator refuses a tool turn without it, as Bedrock does).
 */
import type Anthropic from '@anthropic-ai/sdk';
import { beforeEach, describe, expect, test } from 'vitest';
import { signConverseThinking } from '../../src/protocols/bedrock/simulator/plan-reply.ts';
import { anthropic, gw, MODEL as VENDOR_MODEL, RESULT, useTranslationGateway, WEATHER_SCHEMA } from './translation-drivers.ts';
import { LOOPS } from './reasoning-drivers.ts';

useTranslationGateway();
beforeEach(() => gw.sims.bedrock.reset());

const MODEL = 'bedrock-claude-sonnet-4';
const THOUGHT = 'Thinking about: What is the weather in Paris?';

/** The Converse bodies Bedrock received: the question, then the tool turn. */
function readBodies(): any[] {
  return gw.sims.bedrock.received.map((r) => JSON.parse(r.body.toString()));
}

describe.each(Object.keys(LOOPS))('%s client, bedrock vendor', (style) => {
  test.each([false, true])('stream %s: thinking shown, tool turn signed by Bedrock, loop completes', async (stream) => {
    const result = await LOOPS[style](MODEL, stream);
    expect(result.thinking).toContain(THOUGHT);
    expect(result.final).toContain('temp_c');
    const [first, second] = readBodies();
    expect(gw.sims.bedrock.received.map((r) => r.url.split('/').at(-1))).toEqual([stream ? 'converse-stream' : 'converse', 'converse']);
    expect(first.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(first.inferenceConfig.maxTokens).toBeGreaterThan(1024);
    const assistant = second.messages[1];
    expect(assistant.role).toBe('assistant');
    expect(assistant.content[0]).toEqual({ reasoningContent: { reasoningText: { text: THOUGHT, signature: signConverseThinking(THOUGHT) } } });
    expect(assistant.content.filter((b: any) => b.toolUse).map((b: any) => b.toolUse.name)).toEqual(['get_weather']);
    expect(JSON.stringify(second)).not.toContain('gwr1.');
    expect(second.additionalModelRequestFields.thinking.type).toBe('enabled');
  });
});

describe.each(Object.keys(LOOPS))('%s client, bedrock vendor, redacted thinking', (style) => {
  test.each([false, true])('stream %s: the redacted content goes back to Bedrock byte for byte, loop completes', async (stream) => {
    gw.sims.bedrock.redactNextThinking();
    const result = await LOOPS[style](MODEL, stream);
    expect(result.thinking).not.toContain(THOUGHT);
    expect(result.final).toContain('temp_c');
    const [, second] = readBodies();
    expect(second.messages[1].content[0]).toEqual({ reasoningContent: { redactedContent: Buffer.from(`sim-redacted:${THOUGHT}`).toString('base64') } });
    expect(JSON.stringify(second)).not.toContain('gwr1.');
  });
});

test('a turn the messages vendor signed goes to Bedrock without that signature (each verifies its own); thinking is left off for it and reported', async () => {
  const params = { max_tokens: 4000, thinking: { type: 'enabled' as const, budget_tokens: 1024 }, tools: [{ name: 'get_weather', input_schema: WEATHER_SCHEMA as Anthropic.Tool.InputSchema }] };
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
  const first = await anthropic().messages.create({ ...params, model: VENDOR_MODEL.anthropic, messages });
  const use: any = first.content.find((b) => b.type === 'tool_use');
  const follow: Anthropic.MessageParam[] = [...messages, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: JSON.stringify(RESULT) }] }];
  const { data, response } = await anthropic().messages.create({ ...params, model: MODEL, messages: follow }).withResponse();
  expect(data.content.map((b) => (b.type === 'text' ? b.text : '')).join('')).toContain('temp_c');
  expect(response.headers.get('x-gateway-dropped-fields')).toContain('thinking');
  const [body] = readBodies();
  expect(body.additionalModelRequestFields).toBeUndefined();
  expect(body.messages[1].content.some((b: any) => b.reasoningContent)).toBe(false);
  expect(JSON.stringify(body)).not.toContain('gwr1.');
});
