import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import { DRIVERS, gw, MODEL, openai, readVendorTurn, RESULT, useTranslationGateway, WEATHER_SCHEMA } from './translation-drivers.ts';

useTranslationGateway();

/** Translated vendor failures, responses and legacy completions on other protocols, untranslatable fields. */
describe('vendor failures on translated calls', () => {
  test('a vendor credential failure is a 502 that does not echo the vendor message', async () => {
    gw.sims.anthropic.failNext({ kind: 'status', status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key sk-ant-abcd' } } });
    const error: any = await DRIVERS[0].create(MODEL.anthropic, 'hi').catch((e) => e);
    expect(error.status).toBe(502);
    expect(error.error).toMatchObject({ code: 'upstream_auth_failed' });
    expect(JSON.stringify(error.error)).not.toContain('sk-ant');
  });

  test('a vendor error event inside the stream reaches the Anthropic SDK as its own error', async () => {
    gw.sims.openai.failNext({ kind: 'reset-mid-stream', afterEvents: 1 });
    const error: any = await DRIVERS[1].stream(MODEL.openai, 'cut early').catch((e) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'api_error' } });
  });

  test('a vendor answering garbage is a 502', async () => {
    gw.sims.gemini.failNext({ kind: 'garbage' });
    await expect(DRIVERS[1].create(MODEL.gemini, 'hi')).rejects.toMatchObject({ status: 502 });
  });
});

describe('responses-style and legacy completions requests on other protocols', () => {
  test.each(['anthropic', 'gemini'] as const)('responses.create on a %s vendor: output text and usage', async (vendor) => {
    const r = await openai().responses.create({ model: MODEL[vendor], instructions: 'Be brief.', input: 'hello responses' });
    expect(r.output_text).toBe('Echo: hello responses');
    expect(r.status).toBe('completed');
    expect(r.usage).toMatchObject({ output_tokens: 3 });
    const turn = readVendorTurn(vendor);
    expect(turn.text).toBe('hello responses');
    expect(vendor === 'anthropic' ? turn.body.system : turn.body.systemInstruction.parts[0].text).toBe('Be brief.');
  });

  test.each(['anthropic', 'gemini'] as const)('a streamed response on a %s vendor ends with response.completed', async (vendor) => {
    const stream = openai().responses.stream({ model: MODEL[vendor], input: 'stream responses' });
    const types = new Set<string>();
    for await (const event of stream) types.add(event.type);
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('Echo: stream responses');
    expect([...types]).toEqual(expect.arrayContaining(['response.created', 'response.output_text.delta', 'response.completed']));
  });

  test.each(['anthropic', 'gemini'] as const)('a responses function call round trip on a %s vendor', async (vendor) => {
    const tools = [{ type: 'function' as const, name: 'get_weather', parameters: WEATHER_SCHEMA, strict: false }];
    const first = await openai().responses.create({ model: MODEL[vendor], input: 'Paris', tools });
    const call = first.output.find((item) => item.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    expect([call.name, JSON.parse(call.arguments)]).toEqual(['get_weather', { city: 'Paris' }]);
    const second = await openai().responses.create({
      model: MODEL[vendor],
      tools,
      input: [{ role: 'user', content: 'Paris' }, ...first.output as OpenAI.Responses.ResponseInputItem[], { type: 'function_call_output', call_id: call.call_id, output: JSON.stringify(RESULT) }],
    });
    expect(second.output_text).toBe(`Echo: ${JSON.stringify(RESULT)}`);
  });

  test('an unknown previous_response_id on a vendor without response state is a 404 before any vendor call', async () => {
    const error: any = await openai().responses.create({ model: MODEL.anthropic, input: 'x', previous_response_id: 'resp_1' }).catch((e) => e);
    expect(error.status).toBe(404);
    expect(error.error).toMatchObject({ code: 'response_not_found' });
    expect(gw.sims.anthropic.received).toEqual([]);
  });

  test.each(['anthropic', 'gemini'] as const)('completions.create on a %s vendor, whole and streamed', async (vendor) => {
    const whole = await openai().completions.create({ model: MODEL[vendor], prompt: 'legacy prompt' });
    expect(whole.choices[0]).toMatchObject({ text: 'Echo: legacy prompt', finish_reason: 'stop' });
    expect(whole.usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 3 });
    let text = '';
    for await (const chunk of await openai().completions.create({ model: MODEL[vendor], prompt: 'legacy stream', stream: true })) text += chunk.choices[0]?.text ?? '';
    expect(text).toBe('Echo: legacy stream');
  });
});

describe('untranslatable fields', () => {
  test('are dropped and reported in a header on a lenient model', async () => {
    const { data, response } = await openai().chat.completions.create({ model: MODEL.anthropic, messages: [{ role: 'user', content: 'hi' }], logprobs: true, seed: 3 }).withResponse();
    expect(data.choices[0].message.content).toBe('Echo: hi');
    expect(response.headers.get('x-gateway-dropped-fields')).toBe('logprobs, seed');
    expect(readVendorTurn('anthropic').body).not.toHaveProperty('seed');
  });

  test('are rejected with a 400 naming the field on a strict model, and the default max tokens applies', async () => {
    const error: any = await openai().chat.completions.create({ model: 'sim-anthropic-strict', messages: [{ role: 'user', content: 'hi' }], seed: 3 }).catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ code: 'untranslatable_field', param: 'seed' });
    expect(gw.sims.anthropic.received).toEqual([]);
    await openai().chat.completions.create({ model: 'sim-anthropic-strict', messages: [{ role: 'user', content: 'hi' }] });
    expect(readVendorTurn('anthropic').body.max_tokens).toBe(77);
  });
});
