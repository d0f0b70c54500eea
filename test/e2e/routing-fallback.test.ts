import { describe, expect, it } from 'vitest';
import { useRoutingGateway } from './routing-setup.ts';

const { holder, chat, openaiModels } = useRoutingGateway();

describe('fallback order', () => {
  it('falls back target by target on 500 and answers from the first that succeeds, in the caller style', async () => {
    holder.gw.sims.openai.failNext({ kind: 'status', status: 500 }, 2);
    const reply = await chat('fb-500');
    expect(reply.status).toBe(200);
    expect(reply.json.object).toBe('chat.completion');
    expect(reply.json.choices[0].message.content).toContain('hello there');
    expect(openaiModels()).toEqual(['fb500-primary', 'fb500-second']);
    expect(holder.gw.sims.gemini.received).toHaveLength(1);
    expect(holder.gw.sims.gemini.received[0].url).toContain('/models/gemini-2.5-flash:generateContent');
  });

  it('falls back to another model of the same vendor', async () => {
    holder.gw.sims.openai.failNext({ kind: 'status', status: 500 });
    const reply = await chat('fb-same-vendor');
    expect(reply.status).toBe(200);
    expect(reply.json.model).toBe('sv-other');
    expect(openaiModels()).toEqual(['sv-primary', 'sv-other']);
  });

  it('falls back on 429 to the next target at once (Retry-After is for the same target)', async () => {
    holder.gw.sims.openai.failNext({ kind: 'status', status: 429, headers: { 'retry-after': '2' } });
    const started = Date.now();
    const reply = await chat('fb-500');
    expect(reply.status).toBe(200);
    expect(reply.json.model).toBe('fb500-second');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(openaiModels()).toEqual(['fb500-primary', 'fb500-second']);
    expect(holder.gw.sims.gemini.received).toHaveLength(0);
  });

  it('falls back on a connection reset before headers (fallback_on: connect)', async () => {
    holder.gw.sims.openai.failNext({ kind: 'reset-before-headers' });
    const reply = await chat('fb-connect-only');
    expect(reply.status).toBe(200);
    expect(reply.json.model).toBe('fbconn-second');
    expect(openaiModels()).toEqual(['fbconn-primary', 'fbconn-second']);
  });

  it('falls back from a hanging vendor after the attempt timeout', async () => {
    holder.gw.sims.openai.failNext({ kind: 'hang' });
    const started = Date.now();
    const reply = await chat('hang');
    const elapsed = Date.now() - started;
    expect(reply.status).toBe(200);
    expect(reply.json.model).toBe('hang-second');
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(3000);
    expect(openaiModels()).toEqual(['hang-primary', 'hang-second']);
  });

  it('treats an attempt timeout as a timeout condition (fallback_on: timeout)', async () => {
    holder.gw.sims.openai.failNext({ kind: 'hang' });
    const reply = await chat('fb-timeout-only');
    expect(reply.status).toBe(200);
    expect(reply.json.model).toBe('fbto-second');
    expect(openaiModels()).toEqual(['fbto-primary', 'fbto-second']);
  });

  it('does not fall back on a client error and passes the vendor error on in the caller style', async () => {
    holder.gw.sims.openai.failNext({ kind: 'status', status: 400 });
    const reply = await chat('no-fallback-on-400', { style: 'anthropic' });
    expect(reply.status).toBe(400);
    expect(reply.json.type).toBe('error');
    expect(reply.json.error.type).toBe('invalid_request_error');
    expect(openaiModels()).toEqual(['nf400-primary']);
  });

  it('answers with the last error when every target failed', async () => {
    holder.gw.sims.openai.failNext({ kind: 'status', status: 503 }, 2);
    holder.gw.sims.gemini.failNext({ kind: 'status', status: 500 });
    const reply = await chat('fb-500', { style: 'gemini' });
    expect(reply.status).toBe(500);
    expect(reply.json.error.code).toBe(500);
    expect(openaiModels()).toEqual(['fb500-primary', 'fb500-second']);
    expect(holder.gw.sims.gemini.received).toHaveLength(1);
  });
});

describe('retries', () => {
  it('retries a 429 on the same target after the Retry-After the vendor asked for', async () => {
    holder.gw.sims.openai.failNext({ kind: 'status', status: 429, headers: { 'retry-after': '1' } });
    const started = Date.now();
    const reply = await chat('retry-429');
    expect(reply.status).toBe(200);
    expect(reply.json.model).toBe('r429-primary');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(openaiModels()).toEqual(['r429-primary', 'r429-primary']);
  });

  it('moves on to the next target at once when the Retry-After would pass the deadline', async () => {
    holder.gw.sims.openai.failNext({ kind: 'status', status: 429, headers: { 'retry-after': '3600' } });
    const started = Date.now();
    const reply = await chat('retry-429');
    expect(reply.status).toBe(200);
    expect(reply.json.model).toBe('r429-second');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(openaiModels()).toEqual(['r429-primary', 'r429-second']);
  });

  it('waits the precise retry-after-ms between tries', async () => {
    holder.gw.sims.openai.failNext({ kind: 'status', status: 429, headers: { 'retry-after-ms': '250', 'retry-after': '1' } });
    const started = Date.now();
    const reply = await chat('retry-429');
    const elapsed = Date.now() - started;
    expect(reply.status).toBe(200);
    expect(reply.json.model).toBe('r429-primary');
    expect(elapsed).toBeGreaterThanOrEqual(240);
    expect(elapsed).toBeLessThan(1000);
    expect(openaiModels()).toEqual(['r429-primary', 'r429-primary']);
  });
});

describe('weights', () => {
  it('splits requests between weighted targets 3:1 within statistical bounds, one vendor call each', async () => {
    const total = 400;
    const replies = [];
    for (let batch = 0; batch < total / 20; batch++) {
      replies.push(...(await Promise.all(Array.from({ length: 20 }, () => chat('weights')))));
    }
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
    const models = openaiModels();
    expect(models).toHaveLength(total);
    const heavy = models.filter((model) => model === 'w-heavy').length;
    // Binomial(400, 0.75): mean 300, sd 8.7; ±5 sd fails once in a million runs.
    expect(heavy).toBeGreaterThanOrEqual(257);
    expect(heavy).toBeLessThanOrEqual(343);
    expect(models.filter((model) => model === 'w-light').length).toBe(total - heavy);
    const answered = replies.map((reply) => reply.json.model);
    expect(answered.filter((model) => model === 'w-heavy').length).toBe(heavy);
  });
});
