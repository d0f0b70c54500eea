import { createHash } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { SIMULATOR_KEYS } from '../../src/protocols/simulators.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;
/** A key allowed the Claude models and one Gemini model only. */
const RESTRICTED_KEY = 'sk-restricted-listing-key';
beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => ({
    ...config,
    keys: [
      ...config.keys,
      { name: 'restricted', secret: { sha256: createHash('sha256').update(RESTRICTED_KEY).digest('hex') }, models: ['claude-*', 'gemini-2.5-flash'], limits: {}, strict: false },
    ],
  }));
});
afterAll(() => gw.close());
beforeEach(() => {
  for (const sim of [gw.sims.openai, gw.sims.anthropic, gw.sims.gemini, gw.sims.dashscope]) sim.reset();
});

const lastJson = (sim: { received: { body: Buffer }[] }) => JSON.parse(sim.received.at(-1)!.body.toString());

describe('OpenAI SDK on the chat-completions style (same-protocol passthrough)', () => {
  const client = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });

  it('gets a completion and the vendor gets the upstream model name, its own key and no client credentials', async () => {
    const event = gw.nextEvent();
    const completion = await client().chat.completions.create({
      model: 'sim-openai-chat',
      messages: [{ role: 'user', content: 'hello there' }],
    });
    expect(completion.choices[0].message.content).toContain('hello there');
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
    const received = gw.sims.openai.received.at(-1)!;
    expect(received.url).toBe('/v1/chat/completions');
    expect(JSON.parse(received.body.toString()).model).toBe('gpt-4o-mini');
    expect(received.headers.authorization).toBe(`Bearer ${SIMULATOR_KEYS.openai}`);
    expect(Object.keys(received.headers).filter((h) => h.startsWith('x-stainless'))).toEqual([]);
    const usage = await event;
    expect(usage).toMatchObject({ status: 200, model: 'sim-openai-chat', vendor: 'openai', key: 'simulator', vendorCalls: 1 });
    expect(usage.usage.totalTokens).toBe(completion.usage!.total_tokens);
  });

  it('forwards the original body bytes when the model name needs no rewrite', async () => {
    const body = '{"model":"gpt-4o",   "messages":[{"role":"user","content":"bytes"}],"custom_field":{"a":1}}';
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(gw.sims.openai.received.at(-1)!.body.toString()).toBe(body);
  });

  it('streams chunks in order and reports usage from the final chunk', async () => {
    const event = gw.nextEvent();
    const stream = await client().chat.completions.create({
      model: 'sim-openai-chat',
      messages: [{ role: 'user', content: 'stream me' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null = null;
    const usages: unknown[] = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usages.push(chunk.usage);
    }
    expect(text).toContain('stream me');
    // The client asked for usage itself: every chunk keeps its null usage, and the last one carries the counts.
    expect(usages.slice(0, -1).every((usage) => usage === null)).toBe(true);
    expect(usages.at(-1)).toMatchObject({ prompt_tokens: expect.any(Number) });
    expect(finish).toBe('stop');
    expect(lastJson(gw.sims.openai).stream).toBe(true);
    expect((await event).usage.outputTokens).toBeGreaterThan(0);
  });
});

describe('usage of OpenAI-protocol streams', () => {
  it('asks the vendor for usage, counts it, and hides the extra chunk from a client that did not ask', async () => {
    const event = gw.nextEvent();
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'count me' }] }),
    });
    const text = await response.text();
    const events = text.split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    expect(text).not.toContain('"choices":[]');
    const content = events
      .slice(0, -1)
      .map((e) => JSON.parse(e.slice('data: '.length)).choices[0]?.delta?.content ?? '')
      .join('');
    expect(content).toContain('count me');
    // Nor the `"usage":null` asking put in every chunk: OpenAI sends no usage field to a client that did not ask.
    expect(events.slice(0, -1).filter((e) => 'usage' in JSON.parse(e.slice('data: '.length)))).toEqual([]);
    expect(lastJson(gw.sims.openai).stream_options).toEqual({ include_usage: true });
    const usage = (await event).usage;
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(0);
  });
});

describe('Anthropic SDK on the messages style', () => {
  const client = () => new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });

  it('creates a message; the vendor gets x-api-key and the anthropic-version from YAML', async () => {
    const message = await client().messages.create({
      model: 'sim-anthropic-chat',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi claude' }],
    });
    expect(message.content[0].type).toBe('text');
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    const received = gw.sims.anthropic.received.at(-1)!;
    expect(received.url).toBe('/v1/messages');
    expect(received.headers['x-api-key']).toBe(SIMULATOR_KEYS.anthropic);
    expect(received.headers['anthropic-version']).toBe('2023-06-01');
    expect(received.headers.authorization).toBeUndefined();
    expect(lastJson(gw.sims.anthropic).model).toBe('claude-sonnet-4-6');
  });

  it('streams events and the final message carries usage', async () => {
    const event = gw.nextEvent();
    const stream = client().messages.stream({
      model: 'sim-anthropic-chat',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'stream claude' }],
    });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('end_turn');
    expect((await event).usage.outputTokens).toBe(final.usage.output_tokens);
  });

  it('accepts the x-api-key header as the 0.x SDK sent it', async () => {
    const response = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': gw.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-anthropic-chat', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.status).toBe(200);
  });
});

describe('Google SDK on the generate-content style', () => {
  const client = () => new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });

  it('generates content; the vendor gets its own key and the upstream model in the path', async () => {
    const response = await client().models.generateContent({ model: 'sim-gemini-chat', contents: 'hi gemini' });
    expect(response.text).toContain('hi gemini');
    const received = gw.sims.gemini.received.at(-1)!;
    expect(received.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(received.headers['x-goog-api-key']).toBe(SIMULATOR_KEYS.gemini);
  });

  it('streams content over SSE', async () => {
    const event = gw.nextEvent();
    const stream = await client().models.generateContentStream({ model: 'sim-gemini-chat', contents: 'stream gemini' });
    let text = '';
    for await (const chunk of stream) text += chunk.text ?? '';
    expect(text).toContain('stream gemini');
    expect(gw.sims.gemini.received.at(-1)!.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect((await event).usage.totalTokens).toBeGreaterThan(0);
  });

  it('accepts the key as ?key= and never forwards it', async () => {
    const response = await fetch(`${gw.url}/v1beta/models/sim-gemini-chat:generateContent?key=${gw.key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'q' }] }] }),
    });
    expect(response.status).toBe(200);
    expect(gw.sims.gemini.received.at(-1)!.url).not.toContain(gw.key);
  });
});

describe('model listings from the config, filtered by key', () => {
  it('lists models in the OpenAI, Anthropic and Google shapes', async () => {
    const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key });
    const ids = [];
    for await (const model of openai.models.list()) ids.push(model.id);
    expect(ids).toContain('gpt-4o');
    expect(ids).toContain('claude-sonnet-4-6');

    const anthropic = new Anthropic({ baseURL: gw.url, apiKey: gw.key });
    const page = await anthropic.models.list();
    expect(page.data.map((m) => m.id)).toContain('claude-sonnet-4-6');
    expect(page.data[0].type).toBe('model');

    const google = new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });
    const names = [];
    for await (const model of await google.models.list()) names.push(model.name);
    expect(names).toContain('models/gemini-2.5-flash');
    expect(gw.sims.openai.received).toEqual([]);
  });

  it('lists only the models a restricted key may use, in every shape', async () => {
    const allowed = Object.keys(gw.config.models)
      .filter((id) => id.startsWith('claude-') || id === 'gemini-2.5-flash')
      .sort();
    expect(allowed.length).toBeGreaterThan(1);

    const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: RESTRICTED_KEY });
    const ids: string[] = [];
    for await (const model of openai.models.list()) ids.push(model.id);
    expect(ids.sort()).toEqual(allowed);

    const anthropic = new Anthropic({ baseURL: gw.url, apiKey: RESTRICTED_KEY });
    expect((await anthropic.models.list()).data.map((m) => m.id).sort()).toEqual(allowed);

    const google = new GoogleGenAI({ apiKey: RESTRICTED_KEY, httpOptions: { baseUrl: gw.url } });
    const names: string[] = [];
    for await (const model of await google.models.list()) names.push(model.name!);
    expect(names.sort()).toEqual(allowed.map((id) => `models/${id}`));
    expect(gw.sims.openai.received.length + gw.sims.anthropic.received.length + gw.sims.gemini.received.length).toBe(0);
  });
});
