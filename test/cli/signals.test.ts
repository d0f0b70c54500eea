import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_KEYS, type Simulator } from '../../src/protocols/simulators.ts';
import { startOpenAISimulator } from '../../src/protocols/openai/simulator/index.ts';
import { LAUNCHERS, startCliGateway, type CliGateway } from '../helpers/start-cli-gateway.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { writeGatewayConfig, type WrittenConfig } from '../helpers/write-gateway-config.ts';

const KEY = 'sk-signals-test';
const ENV = { GATEWAY_API_KEY: KEY, OPENAI_API_KEY: SIMULATOR_KEYS.openai };

/** Starts a chat stream of about 1.2 s and resolves once its first bytes arrived, with the rest to come. */
async function openSlowStream(url: string) {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'a b c d e f g h i j' }] }),
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = decoder.decode((await reader.read()).value);
  const rest = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text;
      text += decoder.decode(value, { stream: true });
    }
  })();
  return { rest };
}

async function chat(url: string) {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'still there' }] }),
  });
  return response.status;
}

/** SIGTERM to the spawned pid while a stream is open: the stream ends complete and the process exits 0. */
async function expectDrainOnSigterm(gateway: CliGateway, sim: Simulator) {
  const { rest } = await openSlowStream(gateway.url);
  const exited = gateway.stop('SIGTERM');
  await waitFor(() => gateway.output().includes('SIGTERM: draining 1 request(s)'));
  const text = await rest;
  expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  expect(text.match(/"content":"[^"]/g)!.length).toBeGreaterThanOrEqual(10);
  expect(await exited).toBe(0);
  expect(gateway.output()).toContain('drained; exiting');
  expect(sim.received.filter((request) => request.url.endsWith('/chat/completions'))).toHaveLength(1);
}

describe('signals reach the process that serves', () => {
  let sim: Simulator;
  let config: WrittenConfig;
  beforeAll(async () => {
    sim = await startOpenAISimulator({ streamEvents: 10, streamIntervalMs: 120 });
    config = await writeGatewayConfig((raw) => {
      raw.vendors.openai.base_url = sim.url;
    });
  });
  afterAll(async () => {
    await sim?.close();
    await config?.remove();
  });

  it.each([
    ['npm start', LAUNCHERS.npm],
    ["npm start's command", LAUNCHERS.node],
    ['bin/gateway.mjs', LAUNCHERS.bin],
  ])('%s: SIGTERM to the spawned pid drains a stream in flight, then exits 0', async (_name, launcher) => {
    sim.reset();
    const gateway = await startCliGateway(config.file, ENV, [], launcher);
    await expectDrainOnSigterm(gateway, sim);
  }, 30_000);

  it.each([
    ["npm start's command", LAUNCHERS.node],
    ['bin/gateway.mjs', LAUNCHERS.bin],
  ])('%s: SIGHUP reloads the --config file (generation 2) and the gateway keeps serving', async (_name, launcher) => {
    const gateway = await startCliGateway(config.file, ENV, [], launcher);
    try {
      gateway.child.kill('SIGHUP');
      await waitFor(() => gateway.output().includes('generation 2 serves new requests'), 20_000);
      expect(await chat(gateway.url)).toBe(200);
      expect(gateway.child.exitCode).toBeNull();
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
  }, 30_000);

  it('--workers 2: SIGTERM to the primary drains every worker (a stream in flight finishes), SIGHUP reloads each', async () => {
    sim.reset();
    const gateway = await startCliGateway(config.file, ENV, ['--workers', '2'], LAUNCHERS.bin);
    await waitFor(() => gateway.output().match(/listening on/g)?.length === 2, 20_000);
    gateway.child.kill('SIGHUP');
    // Compiled once, in the primary; each worker serves generation 2.
    await waitFor(() => gateway.output().match(/reloaded by the primary: generation 2/g)?.length === 2, 20_000);
    expect(gateway.output().match(/reloading .* \(SIGHUP\)/g)).toHaveLength(1);
    expect(await chat(gateway.url)).toBe(200);
    sim.reset();
    await expectDrainOnSigterm(gateway, sim);
    expect(gateway.output()).toContain('SIGTERM: stopping 2 worker(s)');
  }, 40_000);
});
