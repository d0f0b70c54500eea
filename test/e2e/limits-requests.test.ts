import { describe, expect, it } from 'vitest';
import { readReceivedModels } from '../helpers/send-chat.ts';
import { STYLES, createLimitsClient, expectRateLimitBody, readRateHeaders, secretOf, useLimitsGateway } from './limits-setup.ts';

const holder = useLimitsGateway();
const { chat, simOf, chatAndSettle } = createLimitsClient(holder);

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
    const headers = readRateHeaders(first.headers);
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

    const charged = holder.gw.events.at(-1)!;
    const tokens = charged.usage.inputTokens! + charged.usage.outputTokens!;
    expect(tokens).toBeGreaterThan(0);
    const second = await chatAndSettle(`headers-${style}`, { style, stream: true });
    expect(second.status).toBe(200);
    expect(second.headers.get('x-ratelimit-remaining-requests')).toBe('48');
    expect(second.headers.get('x-ratelimit-remaining-tokens')).toBe(String(10_000 - tokens));
    expect(simOf(style).received).toHaveLength(2);
  });
});

describe('one request, one count', () => {
  it('counts a request that was retried and fell back once against the key', async () => {
    holder.gw.sims.openai.failNext({ kind: 'status', status: 500 }, 2);
    const first = await chatAndSettle('retried-once', { model: 'retried-chat' });
    expect(first.status).toBe(200);
    expect(first.json.model).toBe('retried-second');
    expect(first.headers.get('x-ratelimit-remaining-requests')).toBe('1');
    expect(holder.gw.events.at(-1)!.vendorCalls).toBe(3);
    expect(readReceivedModels(holder.gw.sims.openai.received)).toEqual(['retried-primary', 'retried-primary', 'retried-second']);

    const second = await chat('retried-once', { model: 'retried-chat' });
    expect(second.status).toBe(200);
    expect(second.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect((await chat('retried-once', { model: 'retried-chat' })).status).toBe(429);
    expect(holder.gw.sims.openai.received).toHaveLength(4);
  });

  it('counts a request fanned out into several vendor calls once against the key', async () => {
    const before = holder.gw.events.length;
    const response = await fetch(`${holder.gw.url}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretOf('fanned-once')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'dall-e-3-split', prompt: 'three cats', n: 3 }),
    });
    const body = (await response.json()) as any;
    expect(response.status).toBe(200);
    expect(body.data).toHaveLength(3);
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    await holder.gw.waitForEvents(before + 1);
    expect(holder.gw.events.at(-1)!.vendorCalls).toBe(3);
    expect(holder.gw.sims.openai.received.filter((r) => r.url.startsWith('/v1/images/generations'))).toHaveLength(3);

    const refused = await fetch(`${holder.gw.url}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretOf('fanned-once')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'dall-e-3-split', prompt: 'one more', n: 1 }),
    });
    expect(refused.status).toBe(429);
    await refused.arrayBuffer();
    expect(holder.gw.sims.openai.received.filter((r) => r.url.startsWith('/v1/images/generations'))).toHaveLength(3);
  });
});
