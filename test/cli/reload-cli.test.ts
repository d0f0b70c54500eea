import { mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELOAD_NEEDS_CONFIG } from '../../src/cli/handle-signals.ts';
import { SIMULATOR_KEYS, type Simulator } from '../../src/protocols/simulators.ts';
import { startOpenAISimulator } from '../../src/protocols/openai/simulator/index.ts';
import { runAlone } from '../helpers/run-alone.ts';
import { readReceivedModels, sendChat } from '../helpers/send-chat.ts';
import { startCliGateway } from '../helpers/start-cli-gateway.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { writeGatewayConfig } from '../helpers/write-gateway-config.ts';

const KEY = 'sk-reload-cli-test';

/** The generations of the request log lines in `output`. */
function readLoggedGenerations(output: string): number[] {
  return output
    .split('\n')
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line).generation);
}

/** Multi-process test (gateway processes): never beside another heavy test file. */
runAlone();
describe('reload triggers of gateway start', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startOpenAISimulator();
  });
  afterAll(() => sim?.close());

  it('without --config (the built tables), SIGHUP logs that reload needs --config and the gateway keeps serving', async () => {
    const gateway = await startCliGateway(undefined, {});
    try {
      gateway.child.kill('SIGHUP');
      await waitFor(() => gateway.output().includes(RELOAD_NEEDS_CONFIG), 10_000);
      const reply = await sendChat(gateway.url, { key: 'sk-gateway-simulator', model: 'gpt-4o-mini' });
      expect(reply.status).toBe(200);
      await waitFor(() => readLoggedGenerations(gateway.output()).length === 1);
      expect(readLoggedGenerations(gateway.output())).toEqual([1]);
      expect(gateway.output()).not.toContain('reloading');
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
  }, 40_000);

  it('--watch: a Kubernetes ConfigMap swap reloads; a bad file then keeps the old config and logs file:line:col', async () => {
    // The layout kubelet makes: gateway.yaml -> ..data/gateway.yaml, ..data -> a timestamped folder, swapped by rename.
    const dir = await mkdtemp(join(tmpdir(), 'reload-configmap-'));
    const edit = (added?: string) => (raw: any) => {
      raw.keys = [{ name: 'watch', key: 'env:GATEWAY_API_KEY', models: ['*'] }];
      raw.vendors.openai.base_url = sim.url;
      if (added) raw.models[added] = { vendor: 'openai', upstream: `${added}-upstream` };
    };
    const publish = async (version: string, text: string) => {
      await mkdir(join(dir, version));
      await writeFile(join(dir, version, 'gateway.yaml'), text);
      await symlink(version, join(dir, '..data_tmp'));
      await rename(join(dir, '..data_tmp'), join(dir, '..data'));
    };
    const texts = await Promise.all([undefined, 'watched-model'].map(async (added) => {
      const written = await writeGatewayConfig(edit(added));
      const text = await readFile(written.file, 'utf8');
      await written.remove();
      return text;
    }));
    await publish('..v1', texts[0]);
    await symlink(join('..data', 'gateway.yaml'), join(dir, 'gateway.yaml'));
    const gateway = await startCliGateway(join(dir, 'gateway.yaml'), { GATEWAY_API_KEY: KEY, OPENAI_API_KEY: SIMULATOR_KEYS.openai }, ['--watch']);
    try {
      expect((await sendChat(gateway.url, { key: KEY, model: 'watched-model' })).status).toBe(404);
      await publish('..v2', texts[1]);
      await waitFor(() => gateway.output().includes('generation 2 serves new requests'), 20_000);
      sim.reset();
      expect((await sendChat(gateway.url, { key: KEY, model: 'watched-model' })).status).toBe(200);
      expect(readReceivedModels(sim.received)).toEqual(['watched-model-upstream']);
      const broken = texts[1].replace(/^models:\n/m, 'models:\n  broken-model: { vendor: no-such-vendor }\n');
      await publish('..v3', broken);
      await waitFor(() => gateway.output().includes('failed: generation 2 keeps serving'), 20_000);
      const line = broken.split('\n').findIndex((text) => text.includes('no-such-vendor')) + 1;
      expect(gateway.output()).toMatch(new RegExp(`gateway\\.yaml:${line}:\\d+: .*no-such-vendor`));
      expect((await sendChat(gateway.url, { key: KEY, model: 'watched-model' })).status).toBe(200);
      await waitFor(() => readLoggedGenerations(gateway.output()).length === 3);
      expect(readLoggedGenerations(gateway.output())).toEqual([1, 2, 2]);
    } finally {
      expect(await gateway.stop()).toBe(0);
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
