/**
 * Request facts per vendor and model from YAML (`request:`), end to end with the official SDKs: the
 * output-token limit field, fields a compatible vendor rejects (dropped and named), and the messages
 * protocol's temperature range (clamped, or a 400 under strict).
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => {
    const openai = Object.values(config.vendors).find((vendor) => vendor.protocol === 'openai')!;
    const base = config.models['sim-openai-chat'];
    const claude = config.models['sim-anthropic-chat'];
    return {
      ...config,
      vendors: { ...config.vendors, compat: { ...openai, name: 'compat', request: { maxTokensField: 'max_tokens', unsupportedFields: ['seed', 'presence_penalty'] } } },
      models: {
        ...config.models,
        'sim-compat-chat': { ...base, id: 'sim-compat-chat', targets: [{ vendor: 'compat', upstream: 'compat-model', weight: 1 }] },
        'sim-anthropic-strict': { ...claude, id: 'sim-anthropic-strict', chat: { ...claude.chat, strict: true } },
        'sim-anthropic-cool': { ...claude, id: 'sim-anthropic-cool', request: { ranges: { temperature: { max: 0.5 } } } },
      },
    };
  });
});
afterAll(() => gw.close());
beforeEach(() => {
  gw.sims.openai.reset();
  gw.sims.anthropic.reset();
});

const lastBody = (vendor: 'openai' | 'anthropic') => JSON.parse(gw.sims[vendor].received.at(-1)!.body.toString());

describe('an OpenAI-compatible vendor with request facts', () => {
  test('gets max_tokens instead of max_completion_tokens, and neither seed nor presence_penalty (named in the terms of the client in the header)', async () => {
    const response = await fetch(`${gw.url}/v1beta/models/sim-compat-chat:generateContent`, {
      method: 'POST', headers: { 'x-goog-api-key': gw.key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'one two three' }] }], generationConfig: { maxOutputTokens: 2, seed: 7, presencePenalty: 0.5 } }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gateway-dropped-fields')).toBe('generationConfig.seed, generationConfig.presencePenalty');
    const body = lastBody('openai');
    expect(body).toMatchObject({ model: 'compat-model', max_tokens: 2 });
    expect(body).not.toHaveProperty('max_completion_tokens');
    expect(body).not.toHaveProperty('seed');
    expect(body).not.toHaveProperty('presence_penalty');
    const answer = await new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } }).models.generateContent({ model: 'sim-compat-chat', contents: 'one two three', config: { maxOutputTokens: 2 } });
    expect(answer.candidates?.[0]?.finishReason).toBe('MAX_TOKENS');
  });

  test('the vendor of the protocol keeps max_completion_tokens by default', async () => {
    await new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 }).messages.create({ model: 'sim-openai-chat', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] });
    expect(lastBody('openai')).toMatchObject({ max_completion_tokens: 5 });
  });
});

describe('the messages protocol temperature range', () => {
  const openai = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });

  test('a temperature above 1 from a chat-completions client is clamped to 1', async () => {
    const r = await openai().chat.completions.create({ model: 'sim-anthropic-chat', temperature: 1.7, messages: [{ role: 'user', content: 'hi' }] });
    expect(r.choices[0].message.content).toBe('Echo: hi');
    expect(lastBody('anthropic').temperature).toBe(1);
  });

  test('under strict it is a 400 naming temperature, and the vendor is not called', async () => {
    const error: any = await openai().chat.completions.create({ model: 'sim-anthropic-strict', temperature: 1.7, messages: [{ role: 'user', content: 'hi' }] }).catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ code: 'parameter_out_of_range', param: 'temperature' });
    expect(gw.sims.anthropic.received).toEqual([]);
  });

  test("a model's own range narrows the protocol's", async () => {
    await openai().chat.completions.create({ model: 'sim-anthropic-cool', temperature: 0.9, top_p: 0.5, messages: [{ role: 'user', content: 'hi' }] });
    expect(lastBody('anthropic')).toMatchObject({ temperature: 0.5, top_p: 0.5 });
  });
});
