import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { sendChat } from '../helpers/send-chat.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** The config with the openai vendor's pool size changed (a setting that needs a new pool). */
function changeOpenAI(config: CompiledConfig, connections: number): CompiledConfig {
  return { ...config, vendors: { ...config.vendors, openai: { ...config.vendors.openai, connections } } };
}

/** Whether undici closed a pool (`Pool.closed`, `Agent.closed`). */
function isClosed(dispatcher: unknown): boolean {
  return (dispatcher as { closed: boolean }).closed;
}

/** Gateway.reload: the snapshot swap, its generation, the vendor pools it keeps and closes, the services it keeps. */
describe('a reload of the running gateway', () => {
  let gw: TestGateway;
  /** The environment the gateway serves with: the simulators' vendor keys and the client key. */
  const readEnv = (): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { GATEWAY_SIMULATOR_KEY: gw.key };
    for (const vendor of gw.gateway.getSnapshot().vendors.values()) if (vendor.config.auth.kind !== 'none') env[vendor.config.auth.env] = vendor.secret;
    return env;
  };
  let connections = 0;
  /** Reloads with a new openai pool; resolves with the snapshots before and after. */
  const reloadNewOpenAIPool = () => {
    const before = gw.gateway.getSnapshot();
    connections = connections ? connections + 1 : before.vendors.get('openai')!.config.connections + 1;
    gw.gateway.reload(changeOpenAI(gw.config, connections));
    return { before, after: gw.gateway.getSnapshot() };
  };
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());

  it('numbers the new snapshot generation + 1; unchanged vendors keep their pool, a changed one gets a new pool', () => {
    const { before, after } = reloadNewOpenAIPool();
    expect(after.generation).toBe(before.generation + 1);
    expect(after.vendors.get('anthropic')!.dispatcher).toBe(before.vendors.get('anthropic')!.dispatcher);
    expect(after.vendors.get('google')!.dispatcher).toBe(before.vendors.get('google')!.dispatcher);
    expect(after.vendors.get('openai')!.dispatcher).not.toBe(before.vendors.get('openai')!.dispatcher);
    // No request was on the old snapshot: its replaced pool closes at once, the kept ones stay open.
    expect(isClosed(before.vendors.get('openai')!.dispatcher)).toBe(true);
    expect(isClosed(after.vendors.get('anthropic')!.dispatcher)).toBe(false);
    expect(isClosed(after.vendors.get('openai')!.dispatcher)).toBe(false);
  });

  it('reads secrets again: a vendor whose secret changed gets a new pool and the new secret', () => {
    const before = gw.gateway.getSnapshot();
    const env = readEnv();
    const name = (before.vendors.get('anthropic')!.config.auth as { env: string }).env;
    const generation = gw.gateway.reload(gw.gateway.getSnapshot().config, { env: { ...env, [name]: 'sk-rotated' } });
    const after = gw.gateway.getSnapshot();
    expect(generation).toBe(before.generation + 1);
    expect(after.vendors.get('anthropic')!.secret).toBe('sk-rotated');
    expect(after.vendors.get('anthropic')!.dispatcher).not.toBe(before.vendors.get('anthropic')!.dispatcher);
    expect(after.vendors.get('openai')!.dispatcher).toBe(before.vendors.get('openai')!.dispatcher);
    expect(after.redactor.redactText('key sk-rotated')).not.toContain('sk-rotated');
    gw.gateway.reload(gw.gateway.getSnapshot().config, { env });
  });

  it('lets a request in flight finish on its snapshot and pool, which closes when that request ends; new requests use the new one', async () => {
    gw.sims.openai.reset();
    gw.sims.openai.failNext({ kind: 'delay', ms: 1500 });
    const slow = sendChat(gw.url, { key: gw.key, model: 'sim-openai-chat', prompt: 'started first' });
    await waitFor(() => gw.sims.openai.received.length === 1);
    const { before, after } = reloadNewOpenAIPool();
    const old = before.vendors.get('openai')!.dispatcher;
    expect(isClosed(old)).toBe(false);
    const fresh = await sendChat(gw.url, { key: gw.key, model: 'sim-openai-chat', prompt: 'started after' });
    expect(fresh.status).toBe(200);
    expect(gw.events.at(-1)!.generation).toBe(after.generation);
    expect(isClosed(old)).toBe(false);
    const reply = await slow;
    expect(reply.status).toBe(200);
    expect(reply.json.choices[0].message.content).toContain('started first');
    await waitFor(() => gw.events.length >= 2 && gw.events.some((event) => event.generation === before.generation));
    expect(gw.events.find((event) => event.generation === before.generation)!.status).toBe(200);
    await waitFor(() => isClosed(old));
    expect(isClosed(after.vendors.get('openai')!.dispatcher)).toBe(false);
    expect(gw.sims.openai.received).toHaveLength(2);
  });

});

describe('limits across reloads', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway((config) => ({ ...config, server: { ...config.server, defaultLimits: { rpm: 3 } } }));
  });
  afterAll(() => gw?.close());

  it('keep counting: with rpm 3, two requests, a reload, a third, a reload, and the fourth is refused', async () => {
    const send = () => sendChat(gw.url, { key: gw.key, model: 'sim-openai-chat' });
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    gw.gateway.reload(changeOpenAI(gw.config, gw.config.vendors.openai.connections + 1));
    expect((await send()).status).toBe(200);
    gw.gateway.reload(changeOpenAI(gw.config, gw.config.vendors.openai.connections + 2));
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe('rate_limit_exceeded');
    await waitFor(() => gw.events.length === 4);
    expect(gw.events.map((event) => event.generation)).toEqual([1, 1, 2, 3]);
    expect(gw.sims.openai.received).toHaveLength(3);
  });
});

describe('a reload during shutdown', () => {
  it('is refused once close() has begun (no pool is made that nothing would close)', async () => {
    const gw = await startTestGateway();
    const closed = gw.close();
    expect(() => gw.gateway.reload(gw.config)).toThrow('shutting down');
    await closed;
    expect(gw.gateway.getSnapshot().generation).toBe(1);
  });
});
