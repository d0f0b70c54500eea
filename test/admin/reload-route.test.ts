import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleAdminReload } from '../../src/admin/reload-route.ts';
import { createLogger } from '../../src/logger.ts';
import { createCompileWorker } from '../../src/reload/compile-in-worker.ts';
import { createReloader, type Reloader } from '../../src/reload/create-reloader.ts';
import { readReceivedModels, sendChat } from '../helpers/send-chat.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';
import { writeGatewayConfig, type WrittenConfig } from '../helpers/write-gateway-config.ts';
import { simulateVendors } from '../../src/simulate.ts';

/** POST /admin/reload's handler over a real gateway, reloader and compile worker. */
describe('handleAdminReload', () => {
  let gw: TestGateway;
  let config: WrittenConfig;
  let original: string;
  let reloader: Reloader;
  const worker = createCompileWorker();
  beforeAll(async () => {
    gw = await startTestGateway();
    config = await writeGatewayConfig((raw) => {
      raw.models['added-by-reload'] = { vendor: 'openai', upstream: 'gpt-4o-mini' };
    });
    original = await readFile(config.file, 'utf8');
    reloader = createReloader({
      file: config.file,
      logger: createLogger('silent'),
      // As `gateway start --simulate` applies a reload: the same simulators serve the new config.
      apply: async (compiled) => {
        const next = await simulateVendors(compiled, {}, { running: gw.sims });
        return gw.gateway.reload(next.config, { env: next.env });
      },
      getGeneration: () => gw.gateway.getSnapshot().generation,
      compile: worker.compile,
    });
  });
  afterAll(async () => {
    await worker.close();
    await gw?.close();
    await config?.remove();
  });

  it('answers 200 with the new generation, which serves the model the file added', async () => {
    expect((await sendChat(gw.url, { key: gw.key, model: 'added-by-reload' })).status).toBe(404);
    const answer = await handleAdminReload(reloader);
    expect(answer).toEqual({ status: 200, body: { status: 'ok', generation: 2 } });
    const reply = await sendChat(gw.url, { key: gw.key, model: 'added-by-reload' });
    expect(reply.status).toBe(200);
    expect(readReceivedModels(gw.sims.openai.received).at(-1)).toBe('gpt-4o-mini');
    await waitFor(() => gw.events.at(-1)?.model === 'added-by-reload');
    expect(gw.events.at(-1)!.generation).toBe(2);
  }, 30_000);

  it('answers 422 config_invalid with each problem as file:line:col, and the old config keeps serving', async () => {
    await writeFile(config.file, original.replace(/^models:\n/m, 'models:\n  broken-model: { vendor: no-such-vendor }\n'));
    const answer = await handleAdminReload(reloader);
    expect(answer.status).toBe(422);
    const { error } = answer.body as { error: { code: string; generation: number; problems: string[]; message: string } };
    expect(error.code).toBe('config_invalid');
    expect(error.generation).toBe(2);
    expect(error.problems).toEqual([expect.stringMatching(/gateway\.yaml:\d+:\d+: .*no-such-vendor/)]);
    expect(gw.gateway.getSnapshot().generation).toBe(2);
    expect((await sendChat(gw.url, { key: gw.key, model: 'added-by-reload' })).status).toBe(200);
    await writeFile(config.file, original);
  }, 30_000);

  it('answers 409 reload_needs_config when the gateway serves built tables (no reloader)', async () => {
    const answer = await handleAdminReload(undefined);
    expect(answer.status).toBe(409);
    expect((answer.body as { error: { code: string } }).error.code).toBe('reload_needs_config');
  });
});
