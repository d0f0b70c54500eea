import { readFile, rename, writeFile } from 'node:fs/promises';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_KEYS, type Simulator } from '../../src/protocols/simulators.ts';
import { startOpenAISimulator } from '../../src/protocols/openai/simulator/index.ts';
import { runAlone } from '../helpers/run-alone.ts';
import { startCliGateway, type CliGateway } from '../helpers/start-cli-gateway.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { writeGatewayConfig, type WrittenConfig } from '../helpers/write-gateway-config.ts';

const KEY = 'sk-reload-load-test';
/** Requests per second offered (paced, whatever the answers' speed) and for how long; a reload every RELOAD_MS. */
const RATE = 200;
const LOAD_MS = 10_000;
const RELOAD_MS = 500;

/** The request log lines of `output`: request id -> the generations logged for it. */
function readGenerations(output: string): Map<string, number[]> {
  const logged = new Map<string, number[]>();
  for (const line of output.split('\n')) {
    if (!line.includes('"msg":"request"')) continue;
    const event = JSON.parse(line) as { requestId: string; generation: number };
    logged.set(event.requestId, [...(logged.get(event.requestId) ?? []), event.generation]);
  }
  return logged;
}

/** Load test: never beside another heavy test file. */
runAlone();
describe('reload under load (gateway start --config, SIGHUP every 0.5 s)', () => {
  let sim: Simulator;
  let config: WrittenConfig;
  let gateway: CliGateway;
  /** The two configs the file alternates between: B adds a model and maps `flip-model` to another upstream. */
  let configA: string;
  let configB: string;

  beforeAll(async () => {
    sim = await startOpenAISimulator();
    config = await writeGatewayConfig((raw) => {
      delete raw.server.limits;
      raw.keys = [{ name: 'load', key: 'env:GATEWAY_API_KEY', models: ['*'] }];
      raw.vendors.openai.base_url = sim.url;
      raw.models['flip-model'] = { vendor: 'openai', upstream: 'upstream-a' };
    });
    configA = await readFile(config.file, 'utf8');
    const other = await writeGatewayConfig((raw) => {
      delete raw.server.limits;
      raw.keys = [{ name: 'load', key: 'env:GATEWAY_API_KEY', models: ['*'] }];
      raw.vendors.openai.base_url = sim.url;
      raw.models['flip-model'] = { vendor: 'openai', upstream: 'upstream-b' };
      raw.models['only-in-b'] = { vendor: 'openai', upstream: 'gpt-4o-mini' };
    });
    configB = await readFile(other.file, 'utf8');
    await other.remove();
    gateway = await startCliGateway(config.file, { GATEWAY_API_KEY: KEY, OPENAI_API_KEY: SIMULATOR_KEYS.openai });
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
    await config?.remove();
  });

  it('serves >= 200 requests/s with zero failures while reloading; each request is served by exactly one generation', async () => {
    // A first reload starts the compile worker (its cold start is not what this test measures).
    gateway.child.kill('SIGHUP');
    await waitFor(() => gateway.output().includes('generation 2 serves new requests'), 30_000);
    sim.reset();
    const client = new OpenAI({ apiKey: KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0, timeout: 60_000 });
    const answers: { id: string; model: string }[] = [];
    const failures: string[] = [];
    const send = async () => {
      try {
        const { data, response } = await client.chat.completions
          .create({ model: 'flip-model', messages: [{ role: 'user', content: 'under reload' }] })
          .withResponse();
        answers.push({ id: response.headers.get('x-request-id')!, model: data.model });
      } catch (error) {
        failures.push(String(error));
      }
    };
    const started = Date.now();
    const inFlight: Promise<void>[] = [];
    let reloads = 0;
    let swaps = Promise.resolve();
    const reloader = setInterval(() => {
      reloads++;
      // Written as deploys do, by a rename: a reload never reads a half-written file.
      const next = `${config.file}.${reloads}`;
      const text = reloads % 2 === 1 ? configA : configB;
      swaps = swaps
        .then(() => writeFile(next, text))
        .then(() => rename(next, config.file))
        .then(() => void gateway.child.kill('SIGHUP'))
        .catch((error: Error) => void failures.push(`swap: ${error.message}`));
    }, RELOAD_MS);
    // Paced: at each tick, as many requests as the rate asks for by now (an open loop, not limited by the answers).
    let sent = 0;
    await new Promise<void>((resolve) => {
      const tick = setInterval(() => {
        const elapsed = Date.now() - started;
        const due = Math.min(Math.floor((elapsed * RATE) / 1000), (LOAD_MS * RATE) / 1000);
        for (; sent < due; sent++) inFlight.push(send());
        if (elapsed >= LOAD_MS) {
          clearInterval(tick);
          resolve();
        }
      }, 5);
    });
    // Reloads go on until the last answer (on a slow machine the gateway may still be serving the 10 s of load).
    await Promise.all(inFlight);
    clearInterval(reloader);
    await swaps;
    expect(failures).toEqual([]);
    expect(sent).toBe((LOAD_MS * RATE) / 1000);
    expect(answers).toHaveLength(sent);
    expect(sim.received).toHaveLength(sent);
    // Reloads happened during the load (SIGHUPs that arrive during a compile share the next one) and none failed.
    const generations = [...gateway.output().matchAll(/generation (\d+) serves new requests/g)].map((m) => Number(m[1]));
    expect(Math.max(...generations)).toBeGreaterThanOrEqual(4);
    expect(gateway.output()).not.toContain('failed: generation');
    // Each request has one log line with one generation, and every request of a generation saw the same config.
    await waitFor(() => answers.every(({ id }) => readGenerations(gateway.output()).has(id)), 30_000);
    const logged = readGenerations(gateway.output());
    const upstreamOf = new Map<number, Set<string>>();
    for (const { id, model } of answers) {
      expect(logged.get(id)).toHaveLength(1);
      const [generation] = logged.get(id)!;
      upstreamOf.set(generation, (upstreamOf.get(generation) ?? new Set()).add(model));
    }
    expect(upstreamOf.size).toBeGreaterThanOrEqual(3);
    for (const models of upstreamOf.values()) expect(models.size).toBe(1);
    expect(new Set([...upstreamOf.values()].flatMap((models) => [...models]))).toEqual(new Set(['upstream-a', 'upstream-b']));
  }, 150_000);
});
