/**
 * With reasoning on, an official openai SDK client forcing a tool call or sending a low top_p to a
 * messages-protocol vendor (which refuses both with thinking on): the vendor gets `tool_choice: auto` and
 * no `top_p`, and the client an answer with the fields named in `x-gateway-dropped-fields`; a strict
 * model answers 400 naming the field and calls no vendor.
 */
import { describe, expect, test } from 'vitest';
import { gw, MODEL, openai, useTranslationGateway, WEATHER_SCHEMA } from './translation-drivers.ts';

useTranslationGateway();

const TOOLS = [{ type: 'function' as const, function: { name: 'get_weather', parameters: WEATHER_SCHEMA } }];
const ASK = { messages: [{ role: 'user' as const, content: 'What is the weather in Paris?' }], tools: TOOLS, reasoning_effort: 'low' as const };
const CASES = [
  { field: 'tool_choice', params: { tool_choice: { type: 'function' as const, function: { name: 'get_weather' } } } },
  { field: 'top_p', params: { top_p: 0.5 } },
];

describe.each(CASES)('$field with reasoning on, messages-protocol vendor', ({ field, params }) => {
  test('the vendor gets what it takes with thinking on; the client is told what was left out', async () => {
    const { data, response } = await openai().chat.completions.create({ model: MODEL.anthropic, ...ASK, ...params }).withResponse();
    expect(response.headers.get('x-gateway-dropped-fields')).toBe(field);
    expect((data.choices[0].message.tool_calls?.[0] as any).function.name).toBe('get_weather');
    const body = JSON.parse(gw.sims.anthropic.received[0].body.toString());
    expect(body.thinking).toMatchObject({ type: 'enabled' });
    if (field === 'tool_choice') expect(body.tool_choice).toEqual({ type: 'auto' });
    else expect(body.top_p).toBeUndefined();
  });

  test('a strict model answers 400 naming the field, and calls no vendor', async () => {
    const error: any = await openai().chat.completions.create({ model: 'sim-anthropic-strict', ...ASK, ...params, max_tokens: 4000 }).catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.param).toBe(field);
    expect(gw.sims.anthropic.received).toHaveLength(0);
  });
});
