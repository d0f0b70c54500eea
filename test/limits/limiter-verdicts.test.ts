import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.ts';
import { renderError } from '../../src/protocols/render-error.ts';
import { createLimiter } from '../../src/limits/limiter.ts';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import { createLogCapture } from './log-capture.ts';
import { makeKey, take } from './limiter-keys.ts';

const { log } = createLogCapture();


async function refusal(admitted: unknown): Promise<GatewayError> {
  const error = await Promise.resolve(admitted).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

describe('the verdict of a refused request', () => {
  it('a concurrency refusal on a key that also has a token limit is a concurrency refusal with Retry-After 1', async () => {
    let time = 1_000_000;
    const limiter = createLimiter(createMemoryStore({ now: () => time }), {}, { log });
    const key = makeKey('tokens-and-slots', { tpm: 1000, concurrency: 1 });
    const held = await take(limiter, key);
    held.charge(300);
    await sleep(0);
    time += 15_000;
    const error = await refusal(limiter.admit(key));
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfter: 1 });
    expect(error.message).toBe('Too many concurrent requests: limit 1. Try again when one of them has finished.');
    expect(error.headers).toEqual({ 'x-ratelimit-limit-tokens': '1000', 'x-ratelimit-remaining-tokens': '700', 'x-ratelimit-reset-tokens': '45s' });
    expect(renderError('openai', error, 'r').headers['retry-after']).toBe('1');
    held.release();
  });

  it('a concurrency refusal on a key that also has a request limit is a concurrency refusal with Retry-After 1', async () => {
    let time = 2_000_000;
    const limiter = createLimiter(createMemoryStore({ now: () => time }), {}, { log });
    const key = makeKey('requests-and-slots', { rpm: 10, concurrency: 2 });
    const first = await take(limiter, key);
    const second = await take(limiter, key);
    time += 1_000;
    const error = await refusal(limiter.admit(key));
    expect(error).toMatchObject({ status: 429, retryAfter: 1 });
    expect(error.message).toBe('Too many concurrent requests: limit 2. Try again when one of them has finished.');
    expect(error.headers?.['x-ratelimit-remaining-requests']).toBe('8');
    first.release();
    second.release();
  });

  it('a token refusal names the token limit and waits for the token window, rounded up', async () => {
    let time = 3_000_000;
    const limiter = createLimiter(createMemoryStore({ now: () => time }), {}, { log });
    const key = makeKey('tokens', { rpm: 100, tpm: 50 });
    (await limiter.admit(key)).charge(80);
    await sleep(0);
    time += 12_300;
    const error = await refusal(limiter.admit(key));
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfter: 48 });
    expect(error.message).toBe('Rate limit reached for tokens: limit 50 per minute. Try again in 47.7s.');
    for (const style of ['openai', 'anthropic', 'gemini'] as const) {
      const rendered = renderError(style, error, 'r');
      expect(rendered.status).toBe(429);
      expect(rendered.headers['retry-after']).toBe('48');
      expect(rendered.headers['x-ratelimit-remaining-tokens']).toBe('0');
    }
  });

  it('a request refusal on a key that also has a token limit names the request limit', async () => {
    let time = 4_000_000;
    const limiter = createLimiter(createMemoryStore({ now: () => time }), {}, { log });
    const key = makeKey('requests', { rpm: 1, tpm: 1000 });
    await limiter.admit(key);
    time += 30_000;
    const error = await refusal(limiter.admit(key));
    expect(error).toMatchObject({ retryAfter: 30 });
    expect(error.message).toBe('Rate limit reached for requests: limit 1 per minute. Try again in 30s.');
  });

  it('Retry-After is at least one second, even when the window resets sooner', async () => {
    let time = 5_000_000;
    const limiter = createLimiter(createMemoryStore({ now: () => time }), {}, { log });
    const key = makeKey('almost-reset', { rpm: 1 });
    await limiter.admit(key);
    time += 59_800;
    const error = await refusal(limiter.admit(key));
    expect(error.retryAfter).toBe(1);
    expect(error.message).toBe('Rate limit reached for requests: limit 1 per minute. Try again in 200ms.');
  });

  it('names a window that is not a minute in seconds', async () => {
    let time = 6_000_000;
    const limiter = createLimiter(createMemoryStore({ now: () => time }), {}, { log, windowMs: 10_000 });
    const key = makeKey('short-window', { rpm: 1 });
    await limiter.admit(key);
    time += 2_500;
    const error = await refusal(limiter.admit(key));
    expect(error).toMatchObject({ retryAfter: 8 });
    expect(error.message).toBe('Rate limit reached for requests: limit 1 per 10 s. Try again in 7.5s.');
  });

  it('takes a limit from the defaults when the key has none, and the key wins over the defaults', async () => {
    const limiter = createLimiter(createMemoryStore(), { rpm: 1, concurrency: 5 }, { log });
    const onlyDefaults = makeKey('defaults', {});
    await limiter.admit(onlyDefaults);
    expect((await refusal(limiter.admit(onlyDefaults))).message).toMatch(/^Rate limit reached for requests: limit 1 per minute/);
    const override = makeKey('override', { rpm: 3, concurrency: 1 });
    await take(limiter, override);
    expect((await refusal(limiter.admit(override))).message).toMatch(/^Too many concurrent requests: limit 1\./);
  });
});
