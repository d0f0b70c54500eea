import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompiledConfig, KeyEntry, LimitSpec } from '../../src/config/types.ts';
import {
  defineModel,
  definePolicy,
  defineTarget,
  SLOW_VENDOR,
  startPolicyGateway,
  TWIN_VENDOR,
  type PolicyGateway,
} from '../helpers/start-policy-gateway.ts';
import { readReceivedModels, sendChat, type ChatOptions, type ChatStyle } from '../helpers/send-chat.ts';
import { waitFor } from '../helpers/wait-for.ts';

/**
 * Per-key limits through the real gateway: each test uses its own key (limits are per key and windows
 * are one minute long), so tests count refusals instead of waiting for a window to roll over.
 */
let gw: PolicyGateway;
const STYLES: ChatStyle[] = ['openai', 'anthropic', 'gemini'];
const CHAT_MODEL: Record<ChatStyle, string> = { openai: 'sim-openai-chat', anthropic: 'sim-anthropic-chat', gemini: 'sim-gemini-chat' };
const KEYS: Record<string, LimitSpec> = {
  'rpm-openai': { rpm: 3 },
  'rpm-anthropic': { rpm: 3 },
  'rpm-gemini': { rpm: 3 },
  'headers-openai': { rpm: 50, tpm: 10_000 },
  'headers-anthropic': { rpm: 50, tpm: 10_000 },
  'headers-gemini': { rpm: 50, tpm: 10_000 },
  'tpm-json': { tpm: 4 },
  'tpm-openai-stream': { tpm: 1000 },
  'tpm-anthropic-stream': { tpm: 1000 },
  'tpm-gemini-stream': { tpm: 1000 },
  'vendor-headers': { rpm: 7 },
  concurrency: { concurrency: 1 },
  'concurrency-leave': { concurrency: 1 },
  'retried-once': { rpm: 2 },
  'fanned-once': { rpm: 1 },
};

/** The secret of a test key (the key's name is part of it). */
const secretOf = (name: string) => `sk-limits-${name}`;

function defineKey(name: string, limits: LimitSpec): KeyEntry {
  return { name, secret: { sha256: createHash('sha256').update(secretOf(name)).digest('hex') }, models: ['*'], limits, strict: false };
}

beforeAll(async () => {
  gw = await startPolicyGateway({
    slow: { streamEvents: 20, streamIntervalMs: 50 },
    configure: (config: CompiledConfig) => ({
      ...config,
      server: { ...config.server, defaultLimits: {} },
      keys: [...config.keys, ...Object.entries(KEYS).map(([name, limits]) => defineKey(name, limits))],
      models: {
        ...config.models,
        'slow-chat': defineModel('slow-chat', [defineTarget(SLOW_VENDOR, 'slow-upstream')]),
        'retried-chat': defineModel(
          'retried-chat',
          [defineTarget('openai', 'retried-primary')],
          [defineTarget(TWIN_VENDOR, 'retried-second')],
          definePolicy({ retries: 1 }),
        ),
        'dall-e-3-split': { ...config.models['dall-e-3'], id: 'dall-e-3-split', images: { ...config.models['dall-e-3'].images!, splitN: true } },
      },
    }),
  });
});
afterAll(() => gw.close());
beforeEach(() => {
  for (const sim of [gw.sims.openai, gw.sims.anthropic, gw.sims.gemini, gw.slowSim]) sim.reset();
});

const chat = (key: string, options: Partial<ChatOptions> & { style?: ChatStyle } = {}) => {
  const style = options.style ?? 'openai';
  return sendChat(gw.url, { model: CHAT_MODEL[style], ...options, key: secretOf(key), style });
};
const simOf = (style: ChatStyle) => (style === 'openai' ? gw.sims.openai : style === 'anthropic' ? gw.sims.anthropic : gw.sims.gemini);

/** Sends a request and waits until the gateway has finished it (slot released, tokens charged). */
async function chatAndSettle(key: string, options: Partial<ChatOptions> & { style?: ChatStyle } = {}) {
  const before = gw.events.length;
  const reply = await chat(key, options);
  await gw.waitForEvents(before + 1);
  return reply;
}

function rateHeaders(headers: Headers): Record<string, string> {
  return Object.fromEntries([...headers].filter(([name]) => name.startsWith('x-ratelimit-')));
}

/** Checks a 429 body is the caller style's own rate-limit error and returns its message. */
function expectRateLimitBody(style: ChatStyle, json: any): string {
  if (style === 'openai') {
    expect(json.error.type).toBe('rate_limit_error');
    expect(json.error.code).toBe('rate_limit_exceeded');
  } else if (style === 'anthropic') {
    expect(json.type).toBe('error');
    expect(json.error.type).toBe('rate_limit_error');
  } else {
    expect(json.error.code).toBe(429);
    expect(json.error.status).toBe('RESOURCE_EXHAUSTED');
  }
  return json.error.message;
}

describe.each(STYLES)('requests per minute in the %s style', (style) => {
  it('admits the limit, then answers 429 with Retry-After and x-ratelimit-* headers; the vendor sees only the admitted', async () => {
    const key = `rpm-${style}`;
    const admitted = [];
    for (let i = 0; i < 3; i++) admitted.push(await chat(key, { style }));
    expect(admitted.map((reply) => reply.status)).toEqual([200, 200, 200]);
    expect(admitted.map((reply) => reply.headers.get('x-ratelimit-remaining-requests'))).toEqual(['2', '1', '0']);

    const refused = await chat(key, { style });
    expect(refused.status).toBe(429);
    const message = expectRateLimitBody(style, refused.json);
    expect(message).toContain('limit 3 per minute');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(55);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('x-ratelimit-limit-requests')).toBe('3');
    expect(refused.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(refused.headers.get('x-ratelimit-reset-requests')).toMatch(/^(\d+(\.\d+)?s|1m0s)$/);
    expect(refused.headers.get('x-request-id')).toBeTruthy();
    expect(simOf(style).received).toHaveLength(3);
  });
});

describe.each(STYLES)('rate headers on answers in the %s style', (style) => {
  it("carries the gateway's request and token headers on every success", async () => {
    const first = await chatAndSettle(`headers-${style}`, { style });
    expect(first.status).toBe(200);
    const headers = rateHeaders(first.headers);
    expect(Object.keys(headers).sort()).toEqual([
      'x-ratelimit-limit-requests',
      'x-ratelimit-limit-tokens',
      'x-ratelimit-remaining-requests',
      'x-ratelimit-remaining-tokens',
      'x-ratelimit-reset-requests',
      'x-ratelimit-reset-tokens',
    ]);
    expect(headers['x-ratelimit-limit-requests']).toBe('50');
    expect(headers['x-ratelimit-remaining-requests']).toBe('49');
    expect(headers['x-ratelimit-limit-tokens']).toBe('10000');
    expect(headers['x-ratelimit-remaining-tokens']).toBe('10000');

    const charged = gw.events.at(-1)!;
    const tokens = charged.usage.inputTokens! + charged.usage.outputTokens!;
    expect(tokens).toBeGreaterThan(0);
    const second = await chatAndSettle(`headers-${style}`, { style, stream: true });
    expect(second.status).toBe(200);
    expect(second.headers.get('x-ratelimit-remaining-requests')).toBe('48');
    expect(second.headers.get('x-ratelimit-remaining-tokens')).toBe(String(10_000 - tokens));
    expect(simOf(style).received).toHaveLength(2);
  });
});

describe('tokens per minute', () => {
  it("charges the vendor's reported usage after a response and refuses the next request once the limit is spent", async () => {
    const first = await chatAndSettle('tpm-json');
    expect(first.status).toBe(200);
    const used = first.json.usage.prompt_tokens + first.json.usage.completion_tokens;
    expect(used).toBeGreaterThanOrEqual(4);
    expect(gw.events.at(-1)!.usage).toMatchObject({ inputTokens: first.json.usage.prompt_tokens, outputTokens: first.json.usage.completion_tokens });

    const refused = await chat('tpm-json');
    expect(refused.status).toBe(429);
    expect(refused.json.error.message).toContain('Rate limit reached for tokens: limit 4 per minute');
    expect(refused.headers.get('x-ratelimit-limit-tokens')).toBe('4');
    expect(refused.headers.get('x-ratelimit-remaining-tokens')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(55);
    expect(gw.sims.openai.received).toHaveLength(1);
  });

  it.each(STYLES)('charges the usage of a %s stream', async (style) => {
    const key = `tpm-${style}-stream`;
    const streamed = await chatAndSettle(key, { style, stream: true });
    expect(streamed.status).toBe(200);
    const usage = gw.events.at(-1)!.usage;
    const tokens = usage.inputTokens! + usage.outputTokens!;
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(0);
    const next = await chat(key, { style });
    expect(next.headers.get('x-ratelimit-remaining-tokens')).toBe(String(1000 - tokens));
    expect(simOf(style).received).toHaveLength(2);
  });

  it('asks an OpenAI stream for its usage and hides the extra usage chunk from a client that did not ask', async () => {
    const streamed = await chatAndSettle('tpm-openai-stream', { stream: true });
    const sent = JSON.parse(gw.sims.openai.received[0].body.toString('utf8'));
    expect(sent.stream_options).toEqual({ include_usage: true });
    const chunks = streamed.text.split('\n\n').filter((event) => event.startsWith('data: {')).map((event) => JSON.parse(event.slice(6)));
    expect(chunks.length).toBeGreaterThan(1);
    // The vendor's usage-only chunk (no choices, usage set) is dropped; content chunks pass unchanged.
    expect(chunks.every((chunk) => chunk.choices.length === 1 && !chunk.usage)).toBe(true);
    expect(streamed.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(gw.events.at(-1)!.usage.outputTokens).toBeGreaterThan(0);
  });
});

describe('concurrent requests', () => {
  it('holds a slot for a slow stream, refuses a second request meanwhile, and frees the slot when the stream ends', async () => {
    const before = gw.events.length;
    const slow = chat('concurrency', { model: 'slow-chat', stream: true });
    await waitFor(() => gw.slowSim.received.length === 1);
    const refused = await chat('concurrency');
    expect(refused.status).toBe(429);
    expect(refused.json.error.message).toContain('Too many concurrent requests: limit 1');
    expect(refused.headers.get('retry-after')).toBe('1');

    const done = await slow;
    expect(done.status).toBe(200);
    expect(done.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    await gw.waitForEvents(before + 2);
    expect((await chat('concurrency')).status).toBe(200);
    expect(gw.slowSim.received).toHaveLength(1);
    expect(gw.sims.openai.received).toHaveLength(1);
  });

  it('frees the slot at once when the client disconnects mid-stream', async () => {
    const client = new AbortController();
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretOf('concurrency-leave')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'slow-chat', stream: true, messages: [{ role: 'user', content: 'one two three four five six seven eight nine ten' }] }),
      signal: client.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    const busy = await chat('concurrency-leave');
    expect(busy.status).toBe(429);

    const left = Date.now();
    client.abort();
    await waitFor(() => gw.events.some((event) => event.key === 'concurrency-leave' && event.model === 'slow-chat'));
    const next = await chat('concurrency-leave');
    expect(next.status).toBe(200);
    // The slow stream would have run for about a second more; the slot came back long before.
    expect(Date.now() - left).toBeLessThan(500);
    const event = gw.events.find((e) => e.key === 'concurrency-leave' && e.model === 'slow-chat')!;
    expect(event.durationMs).toBeLessThan(700);
    expect(gw.slowSim.received).toHaveLength(1);
    expect(gw.sims.openai.received).toHaveLength(1);
  });
});

describe("the vendor's own rate headers", () => {
  it("never reach the client: a success carries the gateway's x-ratelimit-* only", async () => {
    const completion = {
      id: 'chatcmpl-vendor',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4o-mini',
      choices: [{ index: 0, message: { role: 'assistant', content: 'from the vendor' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 },
    };
    gw.sims.openai.failNext({
      kind: 'status',
      status: 200,
      body: completion,
      headers: {
        'x-ratelimit-limit-requests': '10000',
        'x-ratelimit-remaining-requests': '9999',
        'x-ratelimit-reset-requests': '6ms',
        'x-ratelimit-limit-tokens': '30000000',
        'openai-organization': 'vendor-org',
        'set-cookie': '__cf_bm=vendor; path=/',
      },
    });
    const reply = await chat('vendor-headers');
    expect(reply.status).toBe(200);
    expect(reply.json.choices[0].message.content).toBe('from the vendor');
    expect(rateHeaders(reply.headers)).toEqual({
      'x-ratelimit-limit-requests': '7',
      'x-ratelimit-remaining-requests': '6',
      'x-ratelimit-reset-requests': expect.stringMatching(/s$/),
    });
    expect(reply.headers.get('openai-organization')).toBeNull();
    expect(reply.headers.get('set-cookie')).toBeNull();
    expect(gw.sims.openai.received).toHaveLength(1);
  });

  it("never reach the client on a vendor 429 either, whose Retry-After is passed on", async () => {
    gw.sims.openai.failNext({
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '7', 'x-ratelimit-limit-requests': '10000', 'x-ratelimit-remaining-requests': '0' },
    });
    const reply = await chat('vendor-headers', { style: 'anthropic', model: 'sim-openai-chat' });
    expect(reply.status).toBe(429);
    expect(reply.json.error.type).toBe('rate_limit_error');
    expect(reply.headers.get('retry-after')).toBe('7');
    expect(reply.headers.get('x-ratelimit-limit-requests')).toBe('7');
    expect(reply.headers.get('x-ratelimit-remaining-requests')).toBe('5');
    expect(gw.sims.openai.received).toHaveLength(1);
  });
});

describe('one request, one count', () => {
  it('counts a request that was retried and fell back once against the key', async () => {
    gw.sims.openai.failNext({ kind: 'status', status: 500 }, 2);
    const first = await chatAndSettle('retried-once', { model: 'retried-chat' });
    expect(first.status).toBe(200);
    expect(first.json.model).toBe('retried-second');
    expect(first.headers.get('x-ratelimit-remaining-requests')).toBe('1');
    expect(gw.events.at(-1)!.vendorCalls).toBe(3);
    expect(readReceivedModels(gw.sims.openai.received)).toEqual(['retried-primary', 'retried-primary', 'retried-second']);

    const second = await chat('retried-once', { model: 'retried-chat' });
    expect(second.status).toBe(200);
    expect(second.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect((await chat('retried-once', { model: 'retried-chat' })).status).toBe(429);
    expect(gw.sims.openai.received).toHaveLength(4);
  });

  it('counts a request fanned out into several vendor calls once against the key', async () => {
    const before = gw.events.length;
    const response = await fetch(`${gw.url}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretOf('fanned-once')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'dall-e-3-split', prompt: 'three cats', n: 3 }),
    });
    const body = (await response.json()) as any;
    expect(response.status).toBe(200);
    expect(body.data).toHaveLength(3);
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    await gw.waitForEvents(before + 1);
    expect(gw.events.at(-1)!.vendorCalls).toBe(3);
    expect(gw.sims.openai.received.filter((r) => r.url.startsWith('/v1/images/generations'))).toHaveLength(3);

    const refused = await fetch(`${gw.url}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretOf('fanned-once')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'dall-e-3-split', prompt: 'one more', n: 1 }),
    });
    expect(refused.status).toBe(429);
    await refused.arrayBuffer();
    expect(gw.sims.openai.received.filter((r) => r.url.startsWith('/v1/images/generations'))).toHaveLength(3);
  });
});
