/**
 * A Responses turn resolved from the gateway's store (previous_response_id) round-trips its reasoning:
 * the stored reasoning items (with their signature tokens) and calls reach the vendor as its own signed
 * thinking or signed function calls, so the vendor takes the tool turn.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { signClaudeThinking } from '../../src/protocols/anthropic/simulator/thinking.ts';
import { signGeminiCall } from '../../src/protocols/gemini/simulator/thinking.ts';
import { signConverseThinking } from '../../src/protocols/bedrock/simulator/plan-reply.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';
import { MODEL, RESULT, WEATHER_SCHEMA } from './translation-drivers.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway((config) => ({ ...config, server: { ...config.server, responses: { ttlMs: 3_600_000, maxBytes: 64 * 1024 } } }));
});
afterAll(() => gw.close());
beforeEach(() => {
  gw.sims.anthropic.reset();
  gw.sims.gemini.reset();
  gw.sims.bedrock.reset();
});

const openai = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
const tools = [{ type: 'function' as const, name: 'get_weather', parameters: WEATHER_SCHEMA, strict: false }];

const MODELS = { ...MODEL, bedrock: 'bedrock-claude-sonnet-4' };

describe.each(['anthropic', 'gemini', 'bedrock'] as const)('stored reasoning, %s vendor', (vendor) => {
  test.each([false, true])('stream %s: the tool turn continued by previous_response_id reaches the vendor signed', async (stream) => {
    const params = { model: MODELS[vendor], reasoning: { effort: 'low' as const, summary: 'auto' as const }, tools };
    const input = 'What is the weather in Paris?';
    const first = stream ? await openai().responses.stream({ ...params, input }).finalResponse() : await openai().responses.create({ ...params, input });
    expect((first as { store?: boolean }).store).toBe(true);
    expect(first.output.map((item) => item.type)).toEqual(['reasoning', ...first.output.slice(1).map(() => expect.stringMatching(/^(message|function_call|reasoning)$/))]);
    const call: any = first.output.find((item) => item.type === 'function_call');
    const second = await openai().responses.create({ ...params, previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: JSON.stringify(RESULT) }] });
    expect(second.output_text).toContain('temp_c');
    const body = JSON.parse(gw.sims[vendor].received.at(-1)!.body.toString());
    if (vendor === 'anthropic') {
      const assistant = body.messages.find((m: any) => m.role === 'assistant');
      expect(assistant.content[0]).toEqual({ type: 'thinking', thinking: expect.any(String), signature: signClaudeThinking(assistant.content[0].thinking) });
    } else if (vendor === 'bedrock') {
      const { text, signature } = body.messages[1].content[0].reasoningContent.reasoningText;
      expect(signature).toBe(signConverseThinking(text));
    } else {
      const model = body.contents.find((c: any) => c.role === 'model');
      expect(model.parts.find((p: any) => p.functionCall).thoughtSignature).toBe(signGeminiCall('get_weather'));
    }
  });
});
