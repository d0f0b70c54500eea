import { describe, expect, it } from 'vitest';
import { createLimitsClient, readRateHeaders, useLimitsGateway } from './limits-setup.ts';

const holder = useLimitsGateway();
const { chat } = createLimitsClient(holder);

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
    holder.gw.sims.openai.failNext({
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
    expect(readRateHeaders(reply.headers)).toEqual({
      'x-ratelimit-limit-requests': '7',
      'x-ratelimit-remaining-requests': '6',
      'x-ratelimit-reset-requests': expect.stringMatching(/s$/),
    });
    expect(reply.headers.get('openai-organization')).toBeNull();
    expect(reply.headers.get('set-cookie')).toBeNull();
    expect(holder.gw.sims.openai.received).toHaveLength(1);
  });

  it("never reach the client on a vendor 429 either, whose Retry-After is passed on", async () => {
    holder.gw.sims.openai.failNext({
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
    expect(holder.gw.sims.openai.received).toHaveLength(1);
  });
});
