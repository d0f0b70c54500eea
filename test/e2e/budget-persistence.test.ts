import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_KEYS, type Simulator } from '../../src/protocols/simulators.ts';
import { startOpenAISimulator } from '../../src/protocols/openai/simulator/index.ts';
import { startCliGateway, type CliGateway } from '../helpers/start-cli-gateway.ts';
import { writeGatewayConfig, type WrittenConfig } from '../helpers/write-gateway-config.ts';

/** With the memory store, budgets live in a file beside the config: a restart does not reset them. */
const KEY = 'sk-budget-persist-test';
let sim: Simulator;
let config: WrittenConfig;
const running: CliGateway[] = [];

beforeAll(async () => {
  sim = await startOpenAISimulator();
  config = await writeGatewayConfig((raw) => {
    delete raw.server.limits;
    raw.keys = [{ name: 'persist', key: 'env:GATEWAY_API_KEY', models: ['*'], budget: { usd: 5, period: 'month' } }];
    raw.vendors.openai.base_url = sim.url;
    raw.models['gpt-4o-mini'].price = { input: 10_000, output: 10_000 };
  });
}, 30_000);
afterAll(async () => {
  await Promise.all(running.map((gateway) => gateway.stop()));
  await sim?.close();
  await config?.remove();
});

async function start(): Promise<CliGateway> {
  const gateway = await startCliGateway(config.file, { GATEWAY_API_KEY: KEY, OPENAI_API_KEY: SIMULATOR_KEYS.openai });
  running.push(gateway);
  return gateway;
}

/** One request; returns the budget left after its reservation, as the header says. */
async function spend(gateway: CliGateway): Promise<number> {
  const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
  const { response } = await client.chat.completions
    .create({ model: 'gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 'keep count' }] })
    .withResponse();
  return Number(response.headers.get('x-gateway-budget-remaining-usd'));
}

describe('a budget with the memory store', () => {
  it('is written beside the config on shutdown and read back on start', { timeout: 60_000 }, async () => {
    const first = await start();
    const fresh = await spend(first);
    expect(fresh).toBeLessThan(5);
    const code = await first.stop();
    expect(code, first.output()).toBe(0);
    const file = join(dirname(config.file), '.gateway-budgets.json');
    expect(existsSync(file)).toBe(true);
    const [[key, period, nano]] = JSON.parse(readFileSync(file, 'utf8'));
    expect(key).toBe('persist');
    expect(period).toBe(`m${new Date().toISOString().slice(0, 7)}`);
    // What the request really cost: at $0.01 a token, its tokens as the vendor counted them.
    const spent = nano / 1e9;
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThan(5 - fresh);
    expect(sim.received).toHaveLength(1);

    const second = await start();
    const after = await spend(second);
    // The same request reserves the same amount: the difference is what the first one spent.
    expect(fresh - after).toBeCloseTo(spent, 6);
    expect(sim.received).toHaveLength(2);
  });
});
