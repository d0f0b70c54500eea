/**
 * Bedrock Converse features through the gateway: responses-style and legacy completions clients, system
 * prompts, stop sequences (and their stop reason), sampling fields, prompt-cache points with Bedrock's
 * cache read/write counts, and what Converse cannot take (dropped and listed).
 */
import { describe, expect, test, beforeEach } from 'vitest';
import { anthropic, google, gw, openai, useTranslationGateway } from './translation-drivers.ts';

useTranslationGateway();
beforeEach(() => gw.sims.bedrock.reset());

const MODEL = 'bedrock-nova-pro';

function readConverseBody(): any {
  return JSON.parse(gw.sims.bedrock.received.at(-1)!.body.toString());
}

describe('responses-style and legacy completions clients on a Bedrock vendor', () => {
  test('responses.create, whole and streamed: output text, instructions as the Converse system prompt', async () => {
    const whole = await openai().responses.create({ model: MODEL, instructions: 'Be brief.', input: 'hello responses' });
    expect(whole.output_text).toBe('Echo: hello responses');
    expect(readConverseBody().system).toEqual([{ text: 'Be brief.' }]);
    const stream = openai().responses.stream({ model: MODEL, input: 'stream responses' });
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('Echo: stream responses');
    expect(gw.sims.bedrock.received.at(-1)!.url).toBe('/model/amazon.nova-pro-v1%3A0/converse-stream');
  });

  test('a responses function call round trip: toolUse out, toolResult back', async () => {
    const tools = [{ type: 'function' as const, name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, strict: false }];
    const first = await openai().responses.create({ model: MODEL, input: 'Lima', tools });
    const call = first.output.find((item) => item.type === 'function_call') as any;
    expect([call.name, JSON.parse(call.arguments)]).toEqual(['get_weather', { city: 'Lima' }]);
    const second = await openai().responses.create({ model: MODEL, tools, input: [{ role: 'user', content: 'Lima' }, ...(first.output as any[]), { type: 'function_call_output', call_id: call.call_id, output: 'warm' }] });
    expect(second.output_text).toBe('Echo: warm');
    const turn = readConverseBody().messages.at(-1).content[0].toolResult;
    expect(turn).toEqual({ toolUseId: call.call_id, content: [{ text: 'warm' }] });
  });

  test('completions.create, whole and streamed', async () => {
    const whole = await openai().completions.create({ model: MODEL, prompt: 'legacy prompt' });
    expect(whole.choices[0]).toMatchObject({ text: 'Echo: legacy prompt', finish_reason: 'stop' });
    let text = '';
    for await (const chunk of await openai().completions.create({ model: MODEL, prompt: 'legacy stream', stream: true })) text += chunk.choices[0]?.text ?? '';
    expect(text).toBe('Echo: legacy stream');
  });
});

describe('Converse request fields', () => {
  test('system, stop sequences, max tokens, temperature and top_p go to inferenceConfig; a stop sequence ends the text', async () => {
    const r = await openai().chat.completions.create({
      model: MODEL,
      messages: [{ role: 'system', content: 'You echo.' }, { role: 'user', content: 'alpha beta STOP gamma' }],
      stop: ['STOP'], max_tokens: 40, temperature: 0.5, top_p: 0.9,
    });
    expect(r.choices[0]).toMatchObject({ message: { content: 'Echo: alpha beta ' }, finish_reason: 'stop' });
    const body = readConverseBody();
    expect(body.system).toEqual([{ text: 'You echo.' }]);
    expect(body.inferenceConfig).toEqual({ maxTokens: 40, temperature: 0.5, topP: 0.9, stopSequences: ['STOP'] });
  });

  test('a Converse max_tokens stop reaches the Google SDK as MAX_TOKENS', async () => {
    const r = await google().models.generateContent({ model: MODEL, contents: 'one two three four five', config: { maxOutputTokens: 2 } });
    expect(r.candidates?.[0]?.finishReason).toBe('MAX_TOKENS');
    expect(readConverseBody().inferenceConfig).toEqual({ maxTokens: 2 });
  });

  test('fields Converse has no place for are dropped and listed in x-gateway-dropped-fields', async () => {
    const { response } = await openai().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], seed: 7, presence_penalty: 0.5 }).withResponse();
    expect(response.headers.get('x-gateway-dropped-fields')).toMatch(/seed/);
    const body = readConverseBody();
    expect(body).not.toHaveProperty('seed');
    expect(Object.keys(body).sort()).toEqual(['messages']);
  });

  test('cache_control marks become cachePoint blocks; Bedrock cache write then read counts reach the client usage', async () => {
    const system = [{ type: 'text' as const, text: 'A long shared system prompt for caching. '.repeat(5), cache_control: { type: 'ephemeral' as const } }];
    const ask = () => anthropic().messages.create({ model: MODEL, max_tokens: 50, system, messages: [{ role: 'user', content: 'cached question' }] });
    const first = await ask();
    expect(readConverseBody().system).toEqual([{ text: system[0].text }, { cachePoint: { type: 'default' } }]);
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(first.usage.cache_read_input_tokens).toBe(0);
    const event = gw.nextEvent();
    const second = await ask();
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    expect(second.usage.cache_creation_input_tokens).toBe(0);
    expect((await event).usage).toMatchObject({ cachedInputTokens: first.usage.cache_creation_input_tokens });
  });
});
