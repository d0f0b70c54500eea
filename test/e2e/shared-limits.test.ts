import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompiledConfig, KeyEntry, LimitSpec } from '../../src/config/types.ts';
import { createRedisStore } from '../../src/limits/redis-store.ts';
import { createServices } from '../../src/runtime/services.ts';
import { SIMULATOR_KEYS, startOpenAISimulator, type Simulator } from '../../src/simulators/index.ts';
import { createLogCapture } from '../limits/log-capture.ts';
import { startTestRedis, type TestRedis } from '../limits/redis-server.ts';
import { startCliGateway, type CliGateway } from '../helpers/start-cli-gateway.ts';
import { readReceivedModels, sendChat, type ChatReply, type ChatStyle } from '../helpers/send-chat.ts';
import { startPolicyGateway, type PolicyGateway } from '../helpers/start-policy-gateway.ts';
import { writeGatewayConfig, type WrittenConfig } from '../helpers/write-gateway-config.ts';
import { waitFor } from '../helpers/wait-for.ts';

/**
 * Limits and cooldowns shared through a real redis-server (started on a free port by the tests), gateways
 * in separate processes, Redis outages, and the drain on shutdown.
 */
let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(() => redis.stop());

const SHARED_KEY = 'sk-shared-limit-test';
const FREE_KEY = 'sk-shared-free-test';

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

describe('Redis outage', () => {
  const LIMITED: Record<string, LimitSpec> = { limited: { rpm: 3 }, probe: { rpm: 10_000 }, single: { concurrency: 1 } };
  const secretOf = (name: string) => `sk-outage-${name}`;
  const logs = { open: createLogCapture(), closed: createLogCapture() };
  let open: PolicyGateway;
  let closed: PolicyGateway;

  const defineKey = (name: string, limits: LimitSpec): KeyEntry => ({
    name,
    secret: { sha256: createHash('sha256').update(secretOf(name)).digest('hex') },
    models: ['*'],
    limits,
    strict: false,
  });
  const configure = (config: CompiledConfig): CompiledConfig => ({
    ...config,
    server: { ...config.server, defaultLimits: {} },
    keys: [...config.keys, ...Object.entries(LIMITED).map(([name, limits]) => defineKey(name, limits))],
  });
  const startOver = (failOpen: boolean) =>
    startPolicyGateway({
      configure,
      services: async (config) => {
        const { log } = failOpen ? logs.open : logs.closed;
        const store = await createRedisStore({ url: redis.url, failOpen, prefix: failOpen ? 'open:' : 'closed:', reconnectDelayMs: () => 50, log });
        return createServices(config.server, store, log);
      },
    });

  beforeAll(async () => {
    [open, closed] = await Promise.all([startOver(true), startOver(false)]);
  });
  afterAll(async () => {
    await Promise.all([open?.close(), closed?.close()]);
  });
  beforeEach(async () => {
    for (const gw of [open, closed]) gw.sims.openai.reset();
    logs.open.lines.length = 0;
    logs.closed.lines.length = 0;
  });

  const chat = (gw: PolicyGateway, key: string, style: ChatStyle = 'openai') =>
    sendChat(gw.url, { key: secretOf(key), model: style === 'openai' ? 'sim-openai-chat' : style === 'anthropic' ? 'sim-anthropic-chat' : 'sim-gemini-chat', style });

  /** Sends requests of the `probe` key until one is counted by Redis again (its reply has rate headers). */
  async function waitForRedis(gw: PolicyGateway): Promise<void> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const reply = await chat(gw, 'probe');
      if (reply.status === 200 && reply.headers.get('x-ratelimit-limit-requests')) return;
      if (Date.now() > deadline) throw new Error('the gateway did not reach Redis again within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function expectEnforced(gw: PolicyGateway): Promise<ChatReply[]> {
    const replies: ChatReply[] = [];
    for (let i = 0; i < 4; i++) replies.push(await chat(gw, 'limited'));
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 429]);
    return replies;
  }

  it('fail-open keeps serving without Redis, says so in the log, and enforces limits again once Redis is back', async () => {
    await expectEnforced(open);
    expect(open.sims.openai.received).toHaveLength(3);

    await redis.stop();
    const during = [await chat(open, 'limited'), await chat(open, 'limited')];
    expect(during.map((reply) => reply.status)).toEqual([200, 200]);
    expect(during[0].json.choices[0].message.content).toContain('hello there');
    expect(during[0].headers.get('x-ratelimit-limit-requests')).toBeNull();
    expect(open.sims.openai.received).toHaveLength(5);
    const warning = logs.open.lines.find((line) => line.msg.includes('limit store (redis) unreachable'));
    expect(warning?.msg).toContain('fail-open');
    expect(warning?.level).toBe(40);

    await redis.start();
    await waitForRedis(open);
    expect(logs.open.lines.some((line) => line.msg.includes('reachable again'))).toBe(true);
    open.sims.openai.reset();
    await expectEnforced(open);
    expect(open.sims.openai.received).toHaveLength(3);
  });

  it('fail-closed answers 503 with Retry-After in the caller style while Redis is down, and serves again once it is back', async () => {
    await redis.stop();
    for (const style of ['openai', 'anthropic', 'gemini'] as ChatStyle[]) {
      const reply = await chat(closed, 'limited', style);
      expect(reply.status).toBe(503);
      expect(reply.headers.get('retry-after')).toBe('1');
      if (style === 'openai') expect(reply.json.error.code).toBe('rate_limit_unavailable');
      if (style === 'anthropic') expect(reply.json).toMatchObject({ type: 'error', error: { type: 'api_error' } });
      if (style === 'gemini') expect(reply.json.error).toMatchObject({ code: 503, status: 'UNAVAILABLE' });
    }
    expect(closed.sims.openai.received).toHaveLength(0);
    expect(closed.sims.anthropic.received).toHaveLength(0);
    expect(closed.sims.gemini.received).toHaveLength(0);
    expect(logs.closed.lines.some((line) => line.msg.includes('fail-closed: requests get 503'))).toBe(true);

    await redis.start();
    await waitForRedis(closed);
    closed.sims.openai.reset();
    await expectEnforced(closed);
    expect(closed.sims.openai.received).toHaveLength(3);
  });

  it('frees the slot of a client that left while its admission was still being checked', async () => {
    const client = new AbortController();
    redis.pause();
    const left = sendChat(open.url, { key: secretOf('single'), model: 'sim-openai-chat', signal: client.signal }).catch((error) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.abort();
    await left;
    await new Promise((resolve) => setTimeout(resolve, 100));
    redis.resume();
    // Redis admitted the request (and took its slot) after the client had gone.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const next = await chat(open, 'single');
    expect(next.status).toBe(200);
    expect(next.headers.get('retry-after')).toBeNull();
    // Both admissions went through Redis (a command timeout would have admitted fail-open, slot-less).
    expect(logs.open.lines.some((line) => line.msg.includes('unreachable'))).toBe(false);
    expect(open.sims.openai.received).toHaveLength(1);
  });
});

describe('shutdown drain', () => {
  /** Resolves true when a new TCP connection to `url` is refused. */
  function isRefused(url: string): Promise<boolean> {
    const { port } = new URL(url);
    return new Promise((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
  }

  /** Starts a slow chat stream and resolves once its first bytes arrived, with the rest of it to come. */
  async function startSlowStream(url: string, key: string, model: string) {
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'a b c d e f g h i j' }] }),
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    const rest = (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return { text, broken: false };
          text += decoder.decode(value, { stream: true });
        }
      } catch {
        return { text, broken: true };
      }
    })();
    return { rest };
  }

  it('gateway.close(drainMs) refuses new connections and lets a stream in flight finish', async () => {
    const gw = await startPolicyGateway({ slow: { streamEvents: 8, streamIntervalMs: 60 } });
    try {
      const slow = { ...gw.config.models['sim-openai-chat'], id: 'slow', targets: [{ vendor: 'openai-slow', upstream: 'slow', weight: 1 }] };
      gw.gateway.reload({ ...gw.config, models: { ...gw.config.models, slow } });
      const { rest } = await startSlowStream(gw.url, gw.key, 'slow');
      const started = Date.now();
      const closing = gw.gateway.close(5000);
      expect(await isRefused(gw.url)).toBe(true);
      expect(gw.gateway.inFlight()).toBe(1);
      const stream = await rest;
      expect(stream.broken).toBe(false);
      expect(stream.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
      expect(stream.text.match(/"content":"[^"]/g)!.length).toBeGreaterThanOrEqual(8);
      await closing;
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(gw.slowSim.received).toHaveLength(1);
    } finally {
      await gw.close();
    }
  });

  it('gateway.close(drainMs) cuts a stream still running at the drain deadline', async () => {
    const gw = await startPolicyGateway({ slow: { streamEvents: 20, streamIntervalMs: 100 } });
    try {
      const slow = { ...gw.config.models['sim-openai-chat'], id: 'slow', targets: [{ vendor: 'openai-slow', upstream: 'slow', weight: 1 }] };
      gw.gateway.reload({ ...gw.config, models: { ...gw.config.models, slow } });
      const { rest } = await startSlowStream(gw.url, gw.key, 'slow');
      const started = Date.now();
      await gw.gateway.close(200);
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(190);
      expect(elapsed).toBeLessThan(1000);
      const stream = await rest;
      expect(stream.text).not.toContain('[DONE]');
      expect(gw.slowSim.received).toHaveLength(1);
    } finally {
      await gw.close();
    }
  });

  it('a gateway process drains a stream in flight on SIGTERM, refusing new connections, then exits 0', async () => {
    const slowSim = await startOpenAISimulator({ streamEvents: 10, streamIntervalMs: 80 });
    const config = await writeGatewayConfig((raw) => {
      raw.vendors.openai.base_url = slowSim.url;
    });
    try {
      const gateway = await startCliGateway(config.file, { GATEWAY_API_KEY: SHARED_KEY, OPENAI_API_KEY: SIMULATOR_KEYS.openai });
      const { rest } = await startSlowStream(gateway.url, SHARED_KEY, 'gpt-4o-mini');
      const exited = gateway.stop('SIGTERM');
      await waitFor(() => gateway.output().includes('draining 1 request(s)'));
      expect(await isRefused(gateway.url)).toBe(true);
      const stream = await rest;
      expect(stream.broken).toBe(false);
      expect(stream.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
      expect(await exited).toBe(0);
      expect(slowSim.received).toHaveLength(1);
    } finally {
      await slowSim.close();
      await config.remove();
    }
  }, 30_000);
});
