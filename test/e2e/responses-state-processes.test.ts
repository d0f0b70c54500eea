import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIMULATOR_KEYS, type Simulator } from '../../src/protocols/simulators.ts';
import { startAnthropicSimulator } from '../../src/protocols/anthropic/simulator/index.ts';
import { startGeminiSimulator } from '../../src/protocols/gemini/simulator/index.ts';
import { startOpenAISimulator } from '../../src/protocols/openai/simulator/index.ts';
import { startTestRedis, type TestRedis } from '../limits/redis-server.ts';
import { startCliGateway, type CliGateway } from '../helpers/start-cli-gateway.ts';
import { writeGatewayConfig, type WrittenConfig } from '../helpers/write-gateway-config.ts';
import { runAlone } from '../helpers/run-alone.ts';

const KEY = 'sk-responses-state-test';
const NO_STORE_KEY = 'sk-responses-no-store-test';

/** Multi-process test: never beside another heavy test file. */
runAlone();

/** Responses state in Redis: created on one gateway process, continued, read and deleted on another. */
describe('two gateway processes on one redis-server share Responses state', () => {
  let redis: TestRedis;
  let sims: { anthropic: Simulator; gemini: Simulator; openai: Simulator };
  let config: WrittenConfig;
  let gateways: CliGateway[] = [];
  const client = (i: number, apiKey = KEY) => new OpenAI({ baseURL: `${gateways[i].url}/v1`, apiKey, maxRetries: 0 });

  beforeAll(async () => {
    redis = await startTestRedis();
    sims = { anthropic: await startAnthropicSimulator(), gemini: await startGeminiSimulator(), openai: await startOpenAISimulator() };
    config = await writeGatewayConfig((raw) => {
      raw.server.store = 'env:GATEWAY_REDIS_URL';
      raw.server.responses = { ttl: '1h', max_size: '64kb' };
      delete raw.server.limits;
      raw.keys = [
        { name: 'team', key: 'env:GATEWAY_API_KEY', models: ['*'] },
        { name: 'no-store', key: 'env:GATEWAY_NO_STORE_KEY', models: ['*'], responses: { store: false } },
      ];
      raw.vendors.anthropic.base_url = sims.anthropic.url;
      raw.vendors.google.base_url = sims.gemini.url;
      raw.vendors.openai.base_url = sims.openai.url;
      raw.vendors.compat = { protocol: 'openai', base_url: sims.openai.url, auth: { bearer: 'env:OPENAI_API_KEY' }, responses: { state: 'gateway' } };
      raw.models['compat-chat'] = { vendor: 'compat', upstream: 'compat-upstream' };
      raw.models['claude-private'] = { vendor: 'anthropic', upstream: 'claude-sonnet-4-6', responses: { store: false } };
    });
    const env = {
      GATEWAY_REDIS_URL: redis.url, GATEWAY_API_KEY: KEY, GATEWAY_NO_STORE_KEY: NO_STORE_KEY,
      ANTHROPIC_API_KEY: SIMULATOR_KEYS.anthropic, GEMINI_API_KEY: SIMULATOR_KEYS.gemini, OPENAI_API_KEY: SIMULATOR_KEYS.openai,
    };
    gateways = await Promise.all([startCliGateway(config.file, env), startCliGateway(config.file, env)]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await sims?.anthropic.close();
    await sims?.gemini.close();
    await sims?.openai.close();
    await config?.remove();
    await redis?.stop();
  });
  beforeEach(() => {
    sims.anthropic.reset();
    sims.gemini.reset();
    sims.openai.reset();
  });

  it.each(['claude-sonnet-4-6', 'gemini-2.5-flash'])('%s: created on one process, continued (streamed), retrieved, listed and deleted on the other', async (model) => {
    const first = await client(0).responses.create({ model, input: 'remember the lighthouse' });
    expect(first).toMatchObject({ store: true });
    const stream = client(1).responses.stream({ model, input: 'what did I say?', previous_response_id: first.id });
    const second = await stream.finalResponse();
    expect(second.output_text).toBe('Echo: what did I say?');
    const sim = model.startsWith('claude') ? sims.anthropic : sims.gemini;
    const vendorBody = JSON.parse(sim.received.at(-1)!.body.toString());
    const history = model.startsWith('claude')
      ? vendorBody.messages.map((m: any) => m.content.map((b: any) => b.text).join(''))
      : vendorBody.contents.map((c: any) => c.parts.map((p: any) => p.text).join(''));
    expect(history).toEqual(['remember the lighthouse', 'Echo: remember the lighthouse', 'what did I say?']);
    expect((await client(0).responses.retrieve(second.id)).output_text).toBe('Echo: what did I say?');
    const items = await client(0).responses.inputItems.list(second.id);
    expect(items.data.map((item: any) => item.content[0].text)).toEqual(['what did I say?', 'Echo: remember the lighthouse', 'remember the lighthouse']);
    await client(1).responses.delete(first.id);
    const error: any = await client(0).responses.retrieve(first.id).catch((e) => e);
    expect([error.status, error.error?.code]).toEqual([404, 'response_not_found']);
  });

  it('a response an OpenAI-protocol vendor keeps: created on one process (whole and streamed), retrieved, listed and deleted through the other', async () => {
    const whole = await client(0).responses.create({ model: 'gpt-4o-mini', input: 'vendor keeps this' });
    const streamed = await client(0).responses.stream({ model: 'gpt-4o-mini', input: 'and this' }).finalResponse();
    sims.openai.reset();
    for (const created of [whole, streamed]) {
      expect((await client(1).responses.retrieve(created.id)).id).toBe(created.id);
      const items = await client(1).responses.inputItems.list(created.id, { order: 'asc' });
      expect(items.data.map((item: any) => item.content[0].text)).toEqual([created === whole ? 'vendor keeps this' : 'and this']);
    }
    expect((await client(1, NO_STORE_KEY).responses.retrieve(whole.id).catch((e) => e)).status).toBe(404);
    expect(sims.openai.received.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET /v1/responses/${whole.id}`, `GET /v1/responses/${whole.id}/input_items?order=asc`,
      `GET /v1/responses/${streamed.id}`, `GET /v1/responses/${streamed.id}/input_items?order=asc`,
    ]);
    await client(1).responses.delete(whole.id);
    sims.openai.reset();
    const error: any = await client(0).responses.retrieve(whole.id).catch((e) => e);
    expect([error.status, error.error?.code]).toEqual([404, 'response_not_found']);
    expect(sims.openai.received).toEqual([]);
  });

  it('a vendor with responses: { state: gateway }: created on one process, continued on the other with the history resolved', async () => {
    const first = await client(0).responses.create({ model: 'compat-chat', input: 'remember the harbour' });
    await client(1).responses.create({ model: 'compat-chat', input: 'what did I say?', previous_response_id: first.id });
    const sent = sims.openai.received.at(-1)!;
    expect(sent.url).toBe('/v1/chat/completions');
    expect(JSON.parse(sent.body.toString()).messages.map((m: any) => `${m.role}: ${m.content}`)).toEqual([
      'user: remember the harbour', 'assistant: Echo: remember the harbour', 'user: what did I say?',
    ]);
  });

  it('responses: { store: false } on a model or a key in YAML keeps nothing, and the response says so', async () => {
    const onModel = await client(0).responses.create({ model: 'claude-private', input: 'private' });
    const onKey = await client(0, NO_STORE_KEY).responses.create({ model: 'claude-sonnet-4-6', input: 'private too' });
    for (const [response, apiKey] of [[onModel, KEY], [onKey, NO_STORE_KEY]] as const) {
      expect(response).toMatchObject({ store: false });
      const error: any = await client(1, apiKey).responses.retrieve(response.id).catch((e) => e);
      expect(error.status).toBe(404);
    }
  });

  it('a response larger than server.responses.max_size is answered with store: false and not kept', async () => {
    const big = 'word '.repeat(20_000); // 100 kB in, 20 kB out: over the 64kb cap
    const response = await client(0).responses.create({ model: 'claude-sonnet-4-6', input: big });
    expect(response.output_text.length).toBeGreaterThan(10_000);
    expect(response).toMatchObject({ store: false });
    const error: any = await client(1).responses.retrieve(response.id).catch((e) => e);
    expect(error.status).toBe(404);
  });
});
