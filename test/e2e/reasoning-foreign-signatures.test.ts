/**
 * A signature belongs to the target that made it: when the next turn goes to another vendor protocol
 * (a fallback, a weight, the client switching models), the gateway strips what that target cannot
 * verify instead of forwarding it into a 400, and the loop still completes.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, test } from 'vitest';
import { readSignature } from '../../src/translate/reasoning-signature.ts';
import { anthropic, gw, MODEL, openai, RESULT, useTranslationGateway, WEATHER_SCHEMA } from './translation-drivers.ts';

useTranslationGateway();

const lastBody = (vendor: 'anthropic' | 'gemini') => gw.sims[vendor].received.at(-1)!.body.toString();

describe('signatures made by one target are not sent to another', () => {
  test('a chat-completions turn signed by the generate-content vendor goes to the messages vendor without it; thinking is left off for that tool turn and reported', async () => {
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: WEATHER_SCHEMA } }];
    const messages: any[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
    const first = await openai().chat.completions.create({ model: MODEL.gemini, messages, tools, reasoning_effort: 'low' });
    const message: any = first.choices[0].message;
    const token: string = message.tool_calls[0].extra_content.google.thought_signature;
    expect(token).toMatch(/^gwr1\./);
    const follow = [...messages, message, { role: 'tool', tool_call_id: message.tool_calls[0].id, content: JSON.stringify(RESULT) }];
    const { data, response } = await openai().chat.completions.create({ model: MODEL.anthropic, messages: follow, tools, reasoning_effort: 'low' }).withResponse();
    expect(data.choices[0].message.content).toContain('temp_c');
    expect(response.headers.get('x-gateway-dropped-fields')).toContain('reasoning_effort');
    const body = lastBody('anthropic');
    expect(body).not.toContain('gwr1.');
    expect(body).not.toContain('thought_signature');
    expect(JSON.parse(body).thinking).toBeUndefined();
  });

  test('a messages turn signed by the messages vendor goes to the generate-content vendor with the documented placeholder, not the foreign signature', async () => {
    const tools = [{ name: 'get_weather', input_schema: WEATHER_SCHEMA as Anthropic.Tool.InputSchema }];
    const params = { max_tokens: 4000, thinking: { type: 'enabled' as const, budget_tokens: 1024 }, tools };
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
    const first = await anthropic().messages.create({ ...params, model: MODEL.anthropic, messages });
    const thinking: any = first.content.find((b) => b.type === 'thinking');
    expect(thinking.signature).not.toBe('');
    const use: any = first.content.find((b) => b.type === 'tool_use');
    const follow: Anthropic.MessageParam[] = [...messages, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: JSON.stringify(RESULT) }] }];
    const final = await anthropic().messages.create({ ...params, model: MODEL.gemini, messages: follow });
    expect(final.content.map((b) => (b.type === 'text' ? b.text : '')).join('')).toContain('temp_c');
    const body = JSON.parse(lastBody('gemini'));
    const call = body.contents.find((c: any) => c.role === 'model').parts.find((p: any) => p.functionCall);
    expect(call.thoughtSignature).toBe('skip_thought_signature_validator');
    expect(JSON.stringify(body)).not.toContain('gwr1.');
    expect(JSON.stringify(body)).not.toContain(readSignature(thinking.signature).signature);
  });
});
