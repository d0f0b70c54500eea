import { createHash } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompiledConfig, KeyEntry, ModelPrice } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

/** Budgets per key, enforced before the vendor is called, in each caller style through its official SDK. */
const PRICE: ModelPrice = { input: 10_000, output: 20_000 };
const STYLES = ['openai', 'anthropic', 'gemini'] as const;
const secretOf = (style: string) => `sk-budget-${style}`;

function defineKey(style: string): KeyEntry {
  const digest = createHash('sha256').update(secretOf(style)).digest('hex');
  return { name: `budget-${style}`, secret: { sha256: digest }, models: ['*'], limits: {}, budget: { usd: 1, period: 'day' }, strict: false };
}

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => {
    const models = { ...config.models };
    for (const id of ['sim-openai-chat', 'sim-anthropic-chat', 'sim-gemini-chat']) models[id] = { ...models[id], price: PRICE };
    models['dall-e-2'] = { ...models['dall-e-2'], price: { input: 0, output: 0, image: 0.02 } };
    return { ...config, server: { ...config.server, defaultLimits: {} }, models, keys: [...config.keys, ...STYLES.map(defineKey)] };
  });
});
afterAll(() => gw.close());
beforeEach(() => {
  for (const sim of [gw.sims.openai, gw.sims.anthropic, gw.sims.gemini]) sim.reset();
});

/** One chat call per style: `maxTokens` bounds the answer; returns the budget header of the answer. */
const CALLS = {
  async openai(maxTokens: number) {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: secretOf('openai'), maxRetries: 0 });
    const { response } = await client.chat.completions
      .create({ model: 'sim-openai-chat', max_tokens: maxTokens, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    return response.headers.get('x-gateway-budget-remaining-usd');
  },
  async anthropic(maxTokens: number) {
    const client = new Anthropic({ baseURL: gw.url, apiKey: secretOf('anthropic'), maxRetries: 0 });
    const { response } = await client.messages
      .create({ model: 'sim-anthropic-chat', max_tokens: maxTokens, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    return response.headers.get('x-gateway-budget-remaining-usd');
  },
  async gemini(maxTokens: number) {
    const ai = new GoogleGenAI({ apiKey: secretOf('gemini'), httpOptions: { baseUrl: gw.url, retryOptions: { attempts: 1 } } as never });
    const answer = await ai.models.generateContent({ model: 'sim-gemini-chat', contents: 'hi', config: { maxOutputTokens: maxTokens } });
    return answer.sdkHttpResponse?.headers?.['x-gateway-budget-remaining-usd'] ?? null;
  },
};
const simOf = (style: (typeof STYLES)[number]) => (style === 'gemini' ? gw.sims.gemini : gw.sims[style]);

describe.each(STYLES)('a key with a budget, %s style', (style) => {
  it('reserves the largest cost, settles the real one, and refuses what the rest cannot cover with 429 budget_exceeded', async () => {
    const served = gw.nextEvent();
    const remaining = Number(await CALLS[style](5));
    const event = await served;
    // The reservation: the prompt estimate + 5 output tokens, at $0.01 and $0.02 a token.
    expect(remaining).toBeGreaterThan(0);
    expect(remaining).toBeLessThanOrEqual(1 - 5 * 0.02);
    const { inputTokens = 0, outputTokens = 0 } = event.usage;
    expect(event.costUsd).toBeCloseTo(inputTokens * 0.01 + outputTokens * 0.02, 9);
    expect(event.costUsd).toBeGreaterThan(0);
    expect(simOf(style).received).toHaveLength(1);

    // 100 output tokens could cost $2, more than the budget has left: refused before any vendor call.
    const refused = await CALLS[style](100).catch((error: unknown) => error);
    expect(simOf(style).received).toHaveLength(1);
    const left = (1 - event.costUsd!).toFixed(6);
    if (style === 'openai') {
      expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
      const error = refused as InstanceType<typeof OpenAI.RateLimitError>;
      expect(error.error).toMatchObject({ type: 'rate_limit_error', code: 'budget_exceeded' });
      expect(error.headers?.get('x-gateway-budget-remaining-usd')).toBe(left);
      expect(Number(error.headers?.get('retry-after'))).toBeGreaterThan(0);
    } else if (style === 'anthropic') {
      expect(refused).toBeInstanceOf(Anthropic.RateLimitError);
      const error = refused as InstanceType<typeof Anthropic.RateLimitError>;
      expect(error.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
      expect((error.error as any).error.message).toContain(`$${left} of its $1.000000 budget left`);
      expect(error.headers?.get('x-gateway-budget-remaining-usd')).toBe(left);
    } else {
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).status).toBe(429);
      expect((refused as ApiError).message).toContain('"status":"RESOURCE_EXHAUSTED"');
      expect((refused as ApiError).message).toContain(`$${left} of its $1.000000 budget left`);
    }
    const logged = gw.events.at(-1)!;
    expect(logged).toMatchObject({ status: 429, error: 'budget_exceeded', key: `budget-${style}`, vendorCalls: 0 });
  });
});

describe('the cost in the usage event', () => {
  it('is absent for a model without a price', async () => {
    const served = gw.nextEvent();
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    await client.chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] });
    const event = await served;
    expect(event.status).toBe(200);
    expect(event).not.toHaveProperty('costUsd');
    expect(gw.sims.openai.received).toHaveLength(1);
  });
});

describe('the cost of generated images', () => {
  it('is the number of images the client got times the image price', async () => {
    const served = gw.nextEvent();
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    const result = await client.images.generate({ model: 'dall-e-2', prompt: 'a boat', n: 2, size: '256x256' });
    expect(result.data).toHaveLength(2);
    const event = await served;
    expect(event.usage.images).toBe(2);
    expect(event.costUsd).toBeCloseTo(0.04, 12);
    const calls = gw.sims.openai.received.filter((request) => request.url === '/v1/images/generations');
    expect(calls.map((request) => JSON.parse(request.body.toString()).n)).toEqual([2]);
  });
});
