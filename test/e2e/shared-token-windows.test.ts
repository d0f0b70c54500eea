import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/spend/estimate-tokens.ts';
import { SIMULATOR_KEYS, startOpenAISimulator, type Simulator } from '../../src/simulators/index.ts';
import { startTestRedis, type TestRedis } from '../limits/redis-server.ts';
import { startCliGateway, type CliGateway } from '../helpers/start-cli-gateway.ts';
import { writeGatewayConfig, type WrittenConfig } from '../helpers/write-gateway-config.ts';
import { runAlone } from '../helpers/run-alone.ts';

/**
 * The property of issue 15: two gateway processes sharing one redis-server, 50 concurrent clients, a token
 * window shortened to WINDOW_MS by `server.limit_window`: in any window, the tokens admitted never exceed
 * the limit by more than one request's reservation (a fixed window would let twice the limit through at
 * its edge; charging after the response would let every concurrent request through).
 */
runAlone();

const KEY = 'sk-shared-token-window-test';
const WINDOW_MS = 1500;
const TPM = 200;
const MAX_TOKENS = 20;
const CLIENTS = 50;
const RUN_MS = 4 * WINDOW_MS;
const MESSAGES = [{ role: 'user' as const, content: 'one two three four five' }];

let redis: TestRedis;
let sim: Simulator;
let config: WrittenConfig;
const gateways: CliGateway[] = [];
/** When the vendor received each request (ms, this process's clock). */
const arrivals: number[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
  sim = await startOpenAISimulator();
  const push = sim.received.push.bind(sim.received);
  sim.received.push = (...items) => {
    for (const _ of items) arrivals.push(performance.now());
    return push(...items);
  };
  config = await writeGatewayConfig((raw) => {
    raw.server.store = 'env:GATEWAY_REDIS_URL';
    raw.server.limit_window = `${WINDOW_MS}ms`;
    delete raw.server.limits;
    raw.keys = [{ name: 'windowed', key: 'env:GATEWAY_API_KEY', models: ['*'], limits: { tpm: TPM } }];
    raw.vendors.openai.base_url = sim.url;
  });
  const env = { GATEWAY_REDIS_URL: redis.url, GATEWAY_API_KEY: KEY, OPENAI_API_KEY: SIMULATOR_KEYS.openai };
  // One after the other: two cold starts at once may not fit the start timeout on a busy machine.
  gateways.push(await startCliGateway(config.file, env));
  gateways.push(await startCliGateway(config.file, env));
}, 90_000);
afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.stop()));
  await sim?.close();
  await config?.remove();
  await redis?.stop();
});

describe('token windows shared by two processes', () => {
  it('admit at most the limit plus one reservation in any window, under 50 concurrent clients', { timeout: 60_000 }, async () => {
    const clients = gateways.map((gateway) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 }));
    // A first request warms each process up (its first request loads the answer path); its window then passes.
    for (const client of clients) await client.chat.completions.create({ model: 'gpt-4o-mini', max_tokens: MAX_TOKENS, messages: MESSAGES });
    await sleep(WINDOW_MS + 100);
    arrivals.length = 0;
    let tokensPerRequest = 0;
    const refusals: InstanceType<typeof OpenAI.RateLimitError>[] = [];
    const started = performance.now();
    const end = started + RUN_MS;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, i) => {
        while (performance.now() < end) {
          try {
            const answer = await clients[i % 2].chat.completions.create({ model: 'gpt-4o-mini', max_tokens: MAX_TOKENS, messages: MESSAGES });
            tokensPerRequest = answer.usage!.total_tokens;
          } catch (error) {
            if (!(error instanceof OpenAI.RateLimitError)) throw error;
            refusals.push(error);
            await sleep(100);
          }
        }
      }),
    );
    const body = JSON.stringify({ model: 'gpt-4o-mini', max_tokens: MAX_TOKENS, messages: MESSAGES });
    const reservation = estimateTokens(Buffer.byteLength(body)) + MAX_TOKENS;
    expect(tokensPerRequest).toBeGreaterThan(0);
    expect(tokensPerRequest).toBeLessThanOrEqual(reservation);
    // The limit bound: enough was sent to be refused, and more was admitted than one window holds.
    expect(refusals.length).toBeGreaterThan(0);
    const seen = `${arrivals.length} admitted, ${refusals.length} refused, ${tokensPerRequest} tokens each, arrivals at ${arrivals.map((t) => Math.round(t - started)).join(' ')}`;
    expect(arrivals.length * tokensPerRequest, seen).toBeGreaterThan(TPM);
    for (const refusal of refusals.slice(0, 5)) {
      expect(refusal.error).toMatchObject({ code: 'rate_limit_exceeded' });
      expect(refusal.headers?.get('x-ratelimit-limit-tokens')).toBe(String(TPM));
    }
    // Arrivals at the vendor lag admissions a little: windows are checked 10% short of their length.
    const span = WINDOW_MS * 0.9;
    let busiest = 0;
    for (let i = 0; i < arrivals.length; i++) {
      let count = 0;
      for (let j = i; j < arrivals.length && arrivals[j] < arrivals[i] + span; j++) count++;
      busiest = Math.max(busiest, count * tokensPerRequest);
    }
    expect(busiest, `${arrivals.length} admitted, ${refusals.length} refused, ${tokensPerRequest} tokens each`).toBeLessThanOrEqual(TPM + reservation);
    expect(busiest).toBeGreaterThan(TPM / 2);
  });
});
