/**
 * Request facts on the chat-completions passthrough, with the official OpenAI SDK: an OpenAI-compatible
 * vendor declared to read `max_tokens`, to reject `seed` and `presence_penalty`, and (on one model) to take
 * temperatures up to 1 gets the request in that form; a model without facts gets the client's bytes.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => {
    const openai = Object.values(config.vendors).find((vendor) => vendor.protocol === 'openai')!;
    const base = config.models['sim-openai-chat'];
    const target = (upstream: string) => [{ vendor: 'compat', upstream, weight: 1 }];
    return {
      ...config,
      vendors: { ...config.vendors, compat: { ...openai, name: 'compat', request: { maxTokensField: 'max_tokens', unsupportedFields: ['presence_penalty', 'seed'] } } },
      models: {
        ...config.models,
        'sim-compat-chat': { ...base, id: 'sim-compat-chat', targets: target('compat-model') },
        'sim-compat-cool': { ...base, id: 'sim-compat-cool', targets: target('compat-cool'), request: { ranges: { temperature: { max: 1 } } } },
        'sim-compat-strict': { ...base, id: 'sim-compat-strict', targets: target('compat-strict'), chat: { ...base.chat, strict: true } },
      },
    };
  });
});
afterAll(() => gw.close());
beforeEach(() => gw.sims.openai.reset());

const client = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
const lastBody = () => JSON.parse(gw.sims.openai.received.at(-1)!.body.toString());
const messages = [{ role: 'user' as const, content: 'one two three' }];

describe('the chat-completions passthrough to a vendor with request facts', () => {
  test.each([false, true])('sends max_tokens for max_completion_tokens and drops seed and presence_penalty, naming them (stream %s)', async (stream) => {
    const { data, response } = await client().chat.completions
      .create({ model: 'sim-compat-chat', messages, max_completion_tokens: 2, seed: 7, presence_penalty: 0.5, stream } as any)
      .withResponse();
    expect(response.headers.get('x-gateway-dropped-fields')).toBe('presence_penalty, seed');
    const body = lastBody();
    expect(body).toMatchObject({ model: 'compat-model', max_tokens: 2, messages });
    expect(body).not.toHaveProperty('max_completion_tokens');
    expect(body).not.toHaveProperty('seed');
    expect(body).not.toHaveProperty('presence_penalty');
    if (stream) {
      let text = '';
      for await (const chunk of data as any) text += chunk.choices[0]?.delta?.content ?? '';
      expect(text.length).toBeGreaterThan(0);
    } else expect((data as any).choices[0].finish_reason).toBe('length');
  });

  test("a temperature above the model range is clamped to it; top_p inside the protocol's range is left alone", async () => {
    await client().chat.completions.create({ model: 'sim-compat-cool', messages, temperature: 1.6, top_p: 0.3 });
    expect(lastBody()).toMatchObject({ model: 'compat-cool', temperature: 1, top_p: 0.3 });
  });

  test('under strict, a rejected field is a 400 naming it and the vendor is not called', async () => {
    const error: any = await client().chat.completions.create({ model: 'sim-compat-strict', messages, seed: 1 }).catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ code: 'untranslatable_field', param: 'seed' });
    expect(gw.sims.openai.received).toEqual([]);
  });

  test('a model whose vendor declares no facts gets the client fields unchanged (only the model renamed)', async () => {
    const raw = '{"model":"sim-openai-chat","messages":[{"role":"user","content":"hi"}],"max_tokens":3,"seed":7}';
    const response = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' }, body: raw });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gateway-dropped-fields')).toBeNull();
    expect(gw.sims.openai.received.at(-1)!.body.toString()).toBe(raw.replace('sim-openai-chat', 'gpt-4o-mini'));
  });
});
