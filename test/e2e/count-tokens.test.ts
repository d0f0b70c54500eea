/**
 * count_tokens for every model with the official SDKs: exact through the vendor's own counting endpoint
 * when its protocol has one (the request translated to it), else the gateway's tokenizer estimate with
 * `x-gateway-token-count: estimate`. Never 501.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { countTokens } from 'gpt-tokenizer';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { MESSAGE_TOKENS } from '../../src/runtime/translation/estimate-request-tokens.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());
beforeEach(() => {
  for (const sim of [gw.sims.anthropic, gw.sims.openai, gw.sims.gemini]) sim.reset();
});

const anthropic = () => new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
const google = () => new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url, retryOptions: { attempts: 1 } } as never });
const SYSTEM = 'Answer briefly';
const PROMPT = 'how many tokens are in this sentence';
const vendorBody = (vendor: 'anthropic' | 'gemini') => {
  const received = gw.sims[vendor].received.at(-1)!;
  return { url: received.url, body: JSON.parse(received.body.toString()) };
};

describe('messages-style count_tokens', () => {
  test('on a generate-content vendor: exact, through countTokens with the translated request', async () => {
    const event = gw.nextEvent();
    const { data, response } = await anthropic().messages.countTokens({ model: 'sim-gemini-chat', system: SYSTEM, messages: [{ role: 'user', content: PROMPT }] }).withResponse();
    expect(data).toEqual({ input_tokens: 2 + 7 });
    expect(response.headers.get('x-gateway-token-count')).toBeNull();
    const { url, body } = vendorBody('gemini');
    expect(url).toBe('/v1beta/models/gemini-2.5-flash:countTokens');
    expect(body.generateContentRequest).toMatchObject({ model: 'models/gemini-2.5-flash', systemInstruction: { parts: [{ text: SYSTEM }] }, contents: [{ role: 'user', parts: [{ text: PROMPT }] }] });
    const { usage } = await event;
    expect(usage).toMatchObject({ inputTokens: 0, outputTokens: 0 });
    expect(usage.estimated).toBeUndefined();
  });

  test('on an OpenAI-protocol vendor: the tokenizer estimate, marked, no vendor call', async () => {
    const { data, response } = await anthropic().messages.countTokens({ model: 'sim-openai-chat', system: SYSTEM, messages: [{ role: 'user', content: PROMPT }] }).withResponse();
    expect(data.input_tokens).toBe(2 * MESSAGE_TOKENS + countTokens(`${SYSTEM}\n${PROMPT}`));
    expect(response.headers.get('x-gateway-token-count')).toBe('estimate');
    expect(gw.sims.openai.received).toEqual([]);
  });

  test('on a messages-protocol vendor: passed through unchanged, and charged no tokens (not an estimate)', async () => {
    const event = gw.nextEvent();
    const data = await anthropic().messages.countTokens({ model: 'sim-anthropic-chat', messages: [{ role: 'user', content: PROMPT }] });
    expect(data).toEqual({ input_tokens: 7 });
    expect(vendorBody('anthropic').url).toBe('/v1/messages/count_tokens');
    const { usage } = await event;
    expect(usage).toMatchObject({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    expect(usage.estimated).toBeUndefined();
  });

  test("a vendor error is answered in the caller's style", async () => {
    gw.sims.gemini.failNext({ kind: 'status', status: 429 });
    const error: any = await anthropic().messages.countTokens({ model: 'sim-gemini-chat', messages: [{ role: 'user', content: PROMPT }] }).catch((e) => e);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });
});

describe('generate-content countTokens', () => {
  test('on a messages-protocol vendor: exact, through count_tokens without generation-only fields', async () => {
    const r = await google().models.countTokens({ model: 'sim-anthropic-chat', contents: PROMPT });
    expect(r.totalTokens).toBe(7);
    const { url, body } = vendorBody('anthropic');
    expect(url).toBe('/v1/messages/count_tokens');
    expect(body).toEqual({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: [{ type: 'text', text: PROMPT }] }] });
  });

  test('on a generate-content vendor: passed through, and charged no tokens', async () => {
    const event = gw.nextEvent();
    const r = await google().models.countTokens({ model: 'sim-gemini-chat', contents: PROMPT });
    expect(r.totalTokens).toBeGreaterThan(0);
    expect(vendorBody('gemini').url).toBe('/v1beta/models/gemini-2.5-flash:countTokens');
    const { usage } = await event;
    expect(usage).toMatchObject({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    expect(usage.estimated).toBeUndefined();
  });

  test('on an OpenAI-protocol vendor: the estimate, with the header (raw fetch reads it)', async () => {
    const r = await google().models.countTokens({ model: 'sim-openai-chat', contents: PROMPT });
    expect(r.totalTokens).toBe(MESSAGE_TOKENS + countTokens(PROMPT));
    const response = await fetch(`${gw.url}/v1beta/models/sim-openai-chat:countTokens`, {
      method: 'POST', headers: { 'x-goog-api-key': gw.key, 'content-type': 'application/json' }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gateway-token-count')).toBe('estimate');
    expect(await response.json()).toEqual({ totalTokens: MESSAGE_TOKENS + countTokens(PROMPT) });
    expect(gw.sims.openai.received).toEqual([]);
  });

  test('a bad body is a 400 in the generate-content shape, not a 501', async () => {
    const response = await fetch(`${gw.url}/v1beta/models/sim-openai-chat:countTokens`, {
      method: 'POST', headers: { 'x-goog-api-key': gw.key, 'content-type': 'application/json' }, body: JSON.stringify({ contents: 7 }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
  });
});
