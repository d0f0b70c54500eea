import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { KeyEntry } from '../../src/config/types.ts';
import { GatewayError } from '../../src/errors.ts';
import { renderError } from '../../src/protocols/render-error.ts';
import { createLimiter } from '../../src/limits/limiter.ts';
import { createMemoryStore } from '../../src/limits/memory-store.ts';
import type { LimitStore } from '../../src/limits/store.ts';
import { StoreUnavailableError } from '../../src/limits/store.ts';
import { createLogCapture } from './log-capture.ts';

const { log } = createLogCapture();

function makeKey(name: string, limits: KeyEntry['limits'] = {}): KeyEntry {
  return { name, secret: { env: 'UNUSED' }, models: ['*'], limits, strict: false };
}

describe('createLimiter', () => {
  it('sends the gateway rate headers for requests and tokens in OpenAI names', async () => {
    let time = 1_000_000;
    const limiter = createLimiter(createMemoryStore({ now: () => time }), {}, { log });
    const key = makeKey('a', { rpm: 10, tpm: 1000 });
    const first = await limiter.admit(key);
    first.charge(250);
    time += 1500;
    const second = await limiter.admit(key);
    expect(second.headers).toEqual({
      'x-ratelimit-limit-requests': '10',
      'x-ratelimit-remaining-requests': '8',
      // Sliding windows: full again once the newest entry (this request) leaves, the tokens once the charge does.
      'x-ratelimit-reset-requests': '1m0s',
      'x-ratelimit-limit-tokens': '1000',
      'x-ratelimit-remaining-tokens': '750',
      'x-ratelimit-reset-tokens': '58.5s',
    });
  });

  it('takes each limit from the key and falls back to the server defaults', async () => {
    const limiter = createLimiter(createMemoryStore(), { rpm: 5, tpm: 100 }, { log });
    const admission = await limiter.admit(makeKey('b', { rpm: 2 }));
    expect(admission.headers['x-ratelimit-limit-requests']).toBe('2');
    expect(admission.headers['x-ratelimit-limit-tokens']).toBe('100');
    const defaults = await limiter.admit(makeKey('c'));
    expect(defaults.headers['x-ratelimit-limit-requests']).toBe('5');
  });

  it('admits a key without limits without asking the store', async () => {
    const store = createMemoryStore();
    let asked = 0;
    const counting: LimitStore = { ...store, admit: (request) => (asked++, store.admit(request)) };
    const admission = await createLimiter(counting, {}, { log }).admit(makeKey('free'));
    expect(admission.headers).toEqual({});
    admission.release();
    admission.charge(10);
    expect(asked).toBe(0);
  });

  it('refuses over rpm with a 429 rate_limit_exceeded carrying Retry-After and the headers', async () => {
    let time = 5_000_000;
    const limiter = createLimiter(createMemoryStore({ now: () => time }), {}, { log });
    const key = makeKey('d', { rpm: 1 });
    await limiter.admit(key);
    time += 20_500;
    const error = (await Promise.resolve(limiter.admit(key)).catch((e: unknown) => e)) as GatewayError;
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfter: 40 });
    expect(error.message).toBe('Rate limit reached for requests: limit 1 per minute. Try again in 39.5s.');
    expect(error.headers).toEqual({
      'x-ratelimit-limit-requests': '1',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '39.5s',
    });
    const rendered = renderError('anthropic', error, 'req-1');
    expect(rendered.status).toBe(429);
    expect(rendered.headers['retry-after']).toBe('40');
    expect(rendered.headers['x-ratelimit-remaining-requests']).toBe('0');
    expect(JSON.parse(rendered.body).error.type).toBe('rate_limit_error');
  });

  it('charges tokens after the response and refuses once the window is spent', async () => {
    const limiter = createLimiter(createMemoryStore(), {}, { log });
    const key = makeKey('e', { tpm: 100 });
    const admission = await limiter.admit(key);
    expect(admission.headers['x-ratelimit-remaining-tokens']).toBe('100');
    admission.charge(120);
    await sleep(0);
    const error = (await Promise.resolve(limiter.admit(key)).catch((e: unknown) => e)) as GatewayError;
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfter: 60 });
    expect(error.message).toMatch(/^Rate limit reached for tokens: limit 100 per minute/);
    expect(error.headers?.['x-ratelimit-remaining-tokens']).toBe('0');
  });

  it('refuses a request over the concurrency limit until a slot is released, once per release', async () => {
    const limiter = createLimiter(createMemoryStore(), {}, { log });
    const key = makeKey('f', { concurrency: 1 });
    const held = await limiter.admit(key);
    await held.acquire();
    const error = (await Promise.resolve(limiter.admit(key)).catch((e: unknown) => e)) as GatewayError;
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfter: 1 });
    expect(error.message).toMatch(/concurrent requests: limit 1/);
    held.release();
    const next = await limiter.admit(key);
    await next.acquire();
    held.release();
    await expect(limiter.admit(key)).rejects.toMatchObject({ status: 429 });
    next.release();
  });

  it('takes the concurrency slot only on acquire, so admitted requests whose body is still coming hold none', async () => {
    const limiter = createLimiter(createMemoryStore(), {}, { log });
    const key = makeKey('g', { rpm: 100, concurrency: 2 });
    const waiting = await Promise.all([1, 2, 3, 4, 5].map(() => limiter.admit(key)));
    const first = await limiter.admit(key);
    await first.acquire();
    await waiting[0].acquire();
    // Both slots are taken now: a third acquire is refused with the concurrency 429, and so is a new admit.
    await expect(waiting[1].acquire()).rejects.toMatchObject({ status: 429, message: expect.stringMatching(/concurrent requests/) });
    await expect(limiter.admit(key)).rejects.toMatchObject({ status: 429 });
    first.release();
    await waiting[2].acquire();
    waiting[2].release();
    // Six requests were counted (the refused admit and the acquires count none).
    expect((await limiter.admit(key)).headers['x-ratelimit-remaining-requests']).toBe('93');
  });

  it('gives back a slot taken after the request already ended, and takes none after release', async () => {
    const limiter = createLimiter(createMemoryStore(), {}, { log });
    const key = makeKey('i', { concurrency: 1 });
    const early = await limiter.admit(key);
    const taking = early.acquire();
    early.release();
    await taking;
    await sleep(0);
    const next = await limiter.admit(key);
    await next.acquire();
    next.release();
    const late = await limiter.admit(key);
    late.release();
    expect(late.acquire()).toBeUndefined();
    const last = await limiter.admit(key);
    await last.acquire();
    last.release();
  });

  it('fails open or closed per the store when the store is unreachable', async () => {
    const broken = (failOpen: boolean): LimitStore => ({
      ...createMemoryStore(),
      failOpen,
      admit: async () => {
        throw new StoreUnavailableError(new Error('down'));
      },
    });
    const open = await createLimiter(broken(true), {}, { log }).admit(makeKey('h', { rpm: 1 }));
    expect(open.headers).toEqual({});
    await expect(createLimiter(broken(false), {}, { log }).admit(makeKey('h', { rpm: 1 }))).rejects.toMatchObject({
      status: 503,
      code: 'rate_limit_unavailable',
    });
  });
});
