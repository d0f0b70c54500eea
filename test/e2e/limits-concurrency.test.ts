import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';
import { createLimitsClient, expectRateLimitBody, secretOf, useLimitsGateway } from './limits-setup.ts';

const holder = useLimitsGateway();
const { chat, chatAndSettle } = createLimitsClient(holder);

describe('concurrent requests', () => {
  it('holds a slot for a slow stream, refuses a second request meanwhile, and frees the slot when the stream ends', async () => {
    const before = holder.gw.events.length;
    const slow = chat('concurrency', { model: 'slow-chat', stream: true });
    await waitFor(() => holder.gw.slowSim.received.length === 1);
    const refused = await chat('concurrency');
    expect(refused.status).toBe(429);
    expect(refused.json.error.message).toContain('Too many concurrent requests: limit 1');
    expect(refused.headers.get('retry-after')).toBe('1');

    const done = await slow;
    expect(done.status).toBe(200);
    expect(done.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    await holder.gw.waitForEvents(before + 2);
    expect((await chat('concurrency')).status).toBe(200);
    expect(holder.gw.slowSim.received).toHaveLength(1);
    expect(holder.gw.sims.openai.received).toHaveLength(1);
  });

  it('frees the slot at once when the client disconnects mid-stream', async () => {
    const client = new AbortController();
    const response = await fetch(`${holder.gw.url}/v1/chat/completions`, {
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
    await waitFor(() => holder.gw.events.some((event) => event.key === 'concurrency-leave' && event.model === 'slow-chat'));
    const next = await chat('concurrency-leave');
    expect(next.status).toBe(200);
    // The slow stream would have run for about a second more; the slot came back long before.
    expect(Date.now() - left).toBeLessThan(500);
    const event = holder.gw.events.find((e) => e.key === 'concurrency-leave' && e.model === 'slow-chat')!;
    expect(event.durationMs).toBeLessThan(700);
    expect(holder.gw.slowSim.received).toHaveLength(1);
    expect(holder.gw.sims.openai.received).toHaveLength(1);
  });

  it('refuses a request over the concurrency limit of a key with a token window open as a concurrency refusal, Retry-After 1', async () => {
    const charged = await chatAndSettle('concurrency-tokens');
    expect(charged.status).toBe(200);
    const before = holder.gw.events.length;
    const slow = chat('concurrency-tokens', { model: 'slow-chat', stream: true });
    await waitFor(() => holder.gw.slowSim.received.length === 1);
    for (const style of ['openai', 'anthropic', 'gemini'] as const) {
      const refused = await chat('concurrency-tokens', { style });
      expect(refused.status).toBe(429);
      expect(expectRateLimitBody(style, refused.json)).toBe('Too many concurrent requests: limit 1. Try again when one of them has finished.');
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.headers.get('x-ratelimit-limit-tokens')).toBe('10000');
      expect(Number(refused.headers.get('x-ratelimit-remaining-tokens'))).toBeLessThan(10_000);
    }
    expect((await slow).status).toBe(200);
    await holder.gw.waitForEvents(before + 4);
    expect(holder.gw.sims.openai.received).toHaveLength(1);
    expect(holder.gw.sims.anthropic.received).toHaveLength(0);
  });
});
