/**
 * The simulators refuse tool turns whose reasoning signatures are missing or not theirs when thinking
 * is on, as the vendors document (Anthropic: a final assistant turn with tool use must start with its
 * signed thinking block; Gemini: current-turn function calls need their thoughtSignature, or a
 * documented placeholder), and accept them otherwise. Gemini signs the text of an answer without
 * calls too, where sending it back is only recommended: a turn without it is taken.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startAnthropicSimulator } from '../../src/protocols/anthropic/simulator/index.ts';
import { signClaudeThinking } from '../../src/protocols/anthropic/simulator/thinking.ts';
import { startGeminiSimulator } from '../../src/protocols/gemini/simulator/index.ts';
import { signGeminiCall, signGeminiText } from '../../src/protocols/gemini/simulator/thinking.ts';
import { SIMULATOR_KEYS } from '../../src/protocols/simulators.ts';
import type { Simulator } from '../../src/simulators/types.ts';

let claude: Simulator;
let gemini: Simulator;
beforeAll(async () => {
  [claude, gemini] = await Promise.all([startAnthropicSimulator(), startGeminiSimulator()]);
});
afterAll(async () => {
  await Promise.all([claude.close(), gemini.close()]);
});

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: any }> {
  const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.statusCode, body: await res.body.json() };
}

const TOOLS = [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }];
const askClaude = (body: Record<string, unknown>) => post(`${claude.url}/v1/messages`, { 'x-api-key': SIMULATOR_KEYS.anthropic, 'anthropic-version': '2023-06-01' }, { model: 'claude-sonnet-4-6', max_tokens: 4000, tools: TOOLS, ...body });

describe('simulated Claude with thinking on', () => {
  const thinking = { type: 'enabled', budget_tokens: 1024 };
  const turn = (blocks: unknown[]) => [
    { role: 'user', content: 'weather in Paris?' },
    { role: 'assistant', content: [...blocks, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"t":1}' }] },
  ];

  test('answers with a signed thinking block first, and accepts it back', async () => {
    const first = await askClaude({ thinking, messages: [{ role: 'user', content: 'weather in Paris?' }] });
    expect(first.status).toBe(200);
    const block = first.body.content[0];
    expect(block).toEqual({ type: 'thinking', thinking: 'Thinking about: weather in Paris?', signature: signClaudeThinking(block.thinking) });
    const second = await askClaude({ thinking, messages: turn([block]) });
    expect(second.status).toBe(200);
  });

  test.each([
    { name: 'no thinking block', blocks: [], message: /Expected `thinking` or `redacted_thinking`, but found `tool_use`/ },
    { name: 'a foreign signature', blocks: [{ type: 'thinking', thinking: 'x', signature: 'c2lnbmVkIGVsc2V3aGVyZQ==' }], message: /Invalid `signature` in `thinking` block/ },
  ])('refuses a tool turn with $name (400 invalid_request_error)', async ({ blocks, message }) => {
    const answer = await askClaude({ thinking, messages: turn(blocks) });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', message: expect.stringMatching(message) });
  });

  test('refuses a budget under 1024 or not under max_tokens; takes the unsigned turn with thinking off', async () => {
    expect((await askClaude({ thinking: { type: 'enabled', budget_tokens: 1000 }, messages: [{ role: 'user', content: 'hi' }] })).status).toBe(400);
    expect((await askClaude({ thinking: { type: 'enabled', budget_tokens: 4000 }, messages: [{ role: 'user', content: 'hi' }] })).status).toBe(400);
    expect((await askClaude({ messages: turn([]) })).status).toBe(200);
  });
});

const askGemini = (body: Record<string, unknown>) => post(`${gemini.url}/models/gemini-2.5-flash:generateContent`, { 'x-goog-api-key': SIMULATOR_KEYS.gemini }, {
  tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } } }] }], ...body,
});

describe('simulated Gemini with thinking on', () => {
  const generationConfig = { thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } };
  const turn = (signature?: string) => [
    { role: 'user', parts: [{ text: 'weather in Paris?' }] },
    { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, ...(signature ? { thoughtSignature: signature } : {}) }] },
    { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { t: 1 } } }] },
  ];

  test('answers with a thought and a signed call, and accepts the signature back', async () => {
    const first = await askGemini({ generationConfig, contents: [{ role: 'user', parts: [{ text: 'weather in Paris?' }] }] });
    expect(first.status).toBe(200);
    const parts = first.body.candidates[0].content.parts;
    expect(parts[0]).toEqual({ text: 'Thinking about: weather in Paris?', thought: true });
    expect(parts[1].thoughtSignature).toBe(signGeminiCall('get_weather'));
    expect(first.body.usageMetadata.thoughtsTokenCount).toBeGreaterThan(0);
    expect((await askGemini({ generationConfig, contents: turn(parts[1].thoughtSignature) })).status).toBe(200);
  });

  test.each([undefined, 'Zm9yZ2Vk'])('refuses a current-turn call with signature %s (400 INVALID_ARGUMENT)', async (signature) => {
    const answer = await askGemini({ generationConfig, contents: turn(signature) });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ status: 'INVALID_ARGUMENT', message: expect.stringMatching(/thought_signature/) });
  });

  test('takes the documented placeholder, and unsigned calls with thinking off', async () => {
    expect((await askGemini({ generationConfig, contents: turn('skip_thought_signature_validator') })).status).toBe(200);
    expect((await askGemini({ contents: turn() })).status).toBe(200);
    expect((await askGemini({ generationConfig: { thinkingConfig: { thinkingBudget: 0 } }, contents: turn() })).status).toBe(200);
  });

  test('signs the text of an answer without calls (streamed: an empty text part in the last chunk) and takes the turn back with or without it', async () => {
    const ask = [{ role: 'user', parts: [{ text: 'hello' }] }];
    const plain = await askGemini({ tools: undefined, generationConfig, contents: ask });
    const text = plain.body.candidates[0].content.parts.at(-1);
    expect(text).toEqual({ text: 'Echo: hello', thoughtSignature: signGeminiText('Echo: hello') });
    const streamed = await post(`${gemini.url}/models/gemini-2.5-flash:streamGenerateContent`, { 'x-goog-api-key': SIMULATOR_KEYS.gemini }, { generationConfig, contents: ask });
    const last = streamed.body.at(-1).candidates[0];
    expect(last).toMatchObject({ finishReason: 'STOP', content: { parts: [{ text: '', thoughtSignature: signGeminiText('Echo: hello') }] } });
    for (const parts of [[text], [{ text: 'Echo: hello' }]]) {
      expect((await askGemini({ tools: undefined, generationConfig, contents: [...ask, { role: 'model', parts }, { role: 'user', parts: [{ text: 'more' }] }] })).status).toBe(200);
    }
  });
});
