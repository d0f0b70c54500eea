import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompiledConfig, KeyEntry, LimitSpec } from '../../src/config/types.ts';
import { createRedisStore } from '../../src/limits/redis-store.ts';
import { createServices } from '../../src/runtime/services.ts';
import { createLogCapture } from '../limits/log-capture.ts';
import { startTestRedis, type TestRedis } from '../limits/redis-server.ts';
import { sendChat, type ChatReply, type ChatStyle } from '../helpers/send-chat.ts';
import { startPolicyGateway, type PolicyGateway } from '../helpers/start-policy-gateway.ts';

/** A Redis outage under the shared limits: fail-open, fail-closed, and slots of clients that left. */
let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(() => redis.stop());



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
