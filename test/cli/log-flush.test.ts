import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { SIMULATOR_KEYS, type Simulator } from '../../src/protocols/simulators.ts';
import { startOpenAISimulator } from '../../src/protocols/openai/simulator/index.ts';
import { runAlone } from '../helpers/run-alone.ts';
import { startCliGateway } from '../helpers/start-cli-gateway.ts';
import { writeGatewayConfig, type WrittenConfig } from '../helpers/write-gateway-config.ts';

/** Load test with a process: never beside another heavy test file. */
runAlone();

const KEY = 'sk-log-flush-test';
const ENV = { GATEWAY_API_KEY: KEY, OPENAI_API_KEY: SIMULATOR_KEYS.openai };

let sim: Simulator;
let config: WrittenConfig;
beforeAll(async () => {
  sim = await startOpenAISimulator();
  config = await writeGatewayConfig((raw) => {
    raw.vendors.openai.base_url = sim.url;
  });
});
afterAll(() => sim.close());

/** Sends chats from `clients` loops until the gateway stops answering; returns the request id of every answer. */
async function loadUntilGone(url: string, clients: number, answered: string[]): Promise<void> {
  const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'count me' }] });
  const loop = async () => {
    for (;;) {
      try {
        const response = await request(`${url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body,
        });
        await response.body.text();
        answered.push(String(response.headers['x-request-id']));
      } catch {
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, loop));
}

describe('the asynchronous request log', () => {
  it('loses no line on SIGTERM under load: every answered request has its line in the output', async () => {
    const gateway = await startCliGateway(config.file, ENV);
    const answered: string[] = [];
    const load = loadUntilGone(gateway.url, 16, answered);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const code = await gateway.stop('SIGTERM');
    await load;
    expect(code).toBe(0);
    const logged = new Set(
      gateway.output().split('\n').filter((line) => line.startsWith('{"level":30') && line.includes('"msg":"request"')).map((line) => JSON.parse(line).requestId),
    );
    expect(answered.length).toBeGreaterThan(100);
    expect(answered.filter((id) => !logged.has(id))).toEqual([]);
  }, 60_000);
});
