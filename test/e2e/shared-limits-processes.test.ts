import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIMULATOR_KEYS, type Simulator } from '../../src/protocols/simulators.ts';
import { startOpenAISimulator } from '../../src/protocols/openai/simulator/index.ts';
import { startTestRedis, type TestRedis } from '../limits/redis-server.ts';
import { startCliGateway, type CliGateway } from '../helpers/start-cli-gateway.ts';
import { readReceivedModels, sendChat } from '../helpers/send-chat.ts';
import { writeGatewayConfig, type WrittenConfig } from '../helpers/write-gateway-config.ts';
import { runAlone } from '../helpers/run-alone.ts';

/** Limits and cooldowns shared by two gateway processes through a real redis-server (started on a free port). */
let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(() => redis.stop());


const SHARED_KEY = 'sk-shared-limit-test';
const FREE_KEY = 'sk-shared-free-test';


/** Multi-process / load test: never beside another heavy test file. */
runAlone();
describe('two gateway processes on one redis-server', () => {
  let sim: Simulator;
  let config: WrittenConfig;
  let gateways: CliGateway[] = [];

  beforeAll(async () => {
    sim = await startOpenAISimulator();
    config = await writeGatewayConfig((raw) => {
      raw.server.store = 'env:GATEWAY_REDIS_URL';
      delete raw.server.limits;
      raw.keys = [
        { name: 'shared', key: 'env:GATEWAY_API_KEY', models: ['*'], limits: { rpm: 10 } },
        { name: 'free', key: 'env:GATEWAY_FREE_KEY', models: ['*'] },
      ];
      raw.vendors.openai.base_url = sim.url;
      raw.models['shared-cooldown'] = {
        targets: [{ vendor: 'openai', upstream: 'cooling-primary' }],
        fallback: [{ vendor: 'openai', upstream: 'cooling-second' }],
        routing: { cooldown_after: 2, cooldown: '60s' },
      };
    });
    const env = { GATEWAY_REDIS_URL: redis.url, GATEWAY_API_KEY: SHARED_KEY, GATEWAY_FREE_KEY: FREE_KEY, OPENAI_API_KEY: SIMULATOR_KEYS.openai };
    gateways = await Promise.all([startCliGateway(config.file, env), startCliGateway(config.file, env)]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await sim?.close();
    await config?.remove();
  });
  beforeEach(() => sim.reset());

  it('share one request limit exactly: 10 rpm is 10 requests across both, counted atomically', async () => {
    expect(gateways[0].url).not.toBe(gateways[1].url);
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => sendChat(gateways[i % 2].url, { key: SHARED_KEY, model: 'gpt-4o-mini' })),
    );
    const admitted = replies.filter((reply) => reply.status === 200);
    const refused = replies.filter((reply) => reply.status === 429);
    expect(admitted).toHaveLength(10);
    expect(refused).toHaveLength(20);
    const remaining = admitted.map((reply) => Number(reply.headers.get('x-ratelimit-remaining-requests'))).sort((a, b) => a - b);
    expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const reply of refused) {
      expect(reply.json.error.code).toBe('rate_limit_exceeded');
      expect(reply.headers.get('x-ratelimit-limit-requests')).toBe('10');
      expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Each process got 15 requests: limits kept per process would have admitted 20.
    expect(sim.received).toHaveLength(10);
  });

  it('share cooldowns: a target that failed in one process is skipped by the other', async () => {
    for (let i = 0; i < 2; i++) {
      sim.failNext({ kind: 'status', status: 500 });
      const reply = await sendChat(gateways[0].url, { key: FREE_KEY, model: 'shared-cooldown' });
      expect(reply.json.model).toBe('cooling-second');
    }
    const other = await sendChat(gateways[1].url, { key: FREE_KEY, model: 'shared-cooldown' });
    expect(other.status).toBe(200);
    expect(other.json.model).toBe('cooling-second');
    expect(readReceivedModels(sim.received)).toEqual(['cooling-primary', 'cooling-second', 'cooling-primary', 'cooling-second', 'cooling-second']);
  });
});
