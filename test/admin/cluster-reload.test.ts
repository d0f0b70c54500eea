import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { readSeries, sumSeries } from '../metrics/read-series.ts';
import { runAlone } from '../helpers/run-alone.ts';
import { startCliGateway, type CliGateway } from '../helpers/start-cli-gateway.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { writeGatewayConfig, type WrittenConfig } from '../helpers/write-gateway-config.ts';

/** Multi-process test: never beside another heavy test file. */
runAlone();

const FIRST_KEY = 'sk-admin-first-cluster-test';
const SECOND_KEY = 'sk-admin-second-cluster-test';

/** `gateway start --workers 2 --config FILE` with server.admin: what its primary's admin listener does across reloads. */
describe('the admin listener of a --workers primary after a reload', () => {
  let config: WrittenConfig;
  let gateway: CliGateway;
  let adminUrl: string;
  let original: string;
  const admin = (path: string, key?: string, method = 'GET') =>
    fetch(`${adminUrl}${path}`, { method, headers: key ? { authorization: `Bearer ${key}` } : {} });
  const scrape = async () => {
    const response = await admin('/metrics');
    expect(response.status).toBe(200);
    return response.text();
  };
  beforeAll(async () => {
    config = await writeGatewayConfig((raw) => {
      raw.server.admin = { host: '127.0.0.1', port: 0 };
      delete raw.server.limits;
      raw.keys.push({ name: 'ops', key: 'env:GATEWAY_ADMIN_KEY', admin: true });
    });
    original = await readFile(config.file, 'utf8');
    const env = { GATEWAY_ADMIN_KEY: FIRST_KEY, GATEWAY_ADMIN_KEY_2: SECOND_KEY };
    // Each worker compiles the TypeScript sources at start: slow on a busy machine.
    gateway = await startCliGateway(config.file, env, ['--workers', '2'], undefined, 90_000);
    await waitFor(() => /admin listener on http/.test(gateway.output()) && (gateway.output().match(/listening on http/g) ?? []).length >= 2, 90_000);
    adminUrl = /admin listener on (http:\/\/[\d.:]+)/.exec(gateway.output())![1];
  }, 200_000);
  afterAll(async () => {
    await gateway?.stop();
    await config?.remove();
  });

  it('takes the admin keys of the reloaded config: the new key opens the admin API, the removed one no longer does', async () => {
    expect((await admin('/admin/status', FIRST_KEY)).status).toBe(200);
    expect((await admin('/admin/status', SECOND_KEY)).status).toBe(401);
    const next = parse(original);
    next.keys = next.keys.filter((key: { name: string }) => key.name !== 'ops');
    next.keys.push({ name: 'ops-next', key: 'env:GATEWAY_ADMIN_KEY_2', admin: true });
    await writeFile(config.file, stringify(next));
    const reload = await admin('/admin/reload', FIRST_KEY, 'POST');
    expect(reload.status).toBe(200);
    expect(await reload.json()).toEqual({ status: 'ok', generation: 2 });
    expect((await admin('/admin/status', SECOND_KEY)).status).toBe(200);
    const refused = await admin('/admin/status', FIRST_KEY);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_admin_key');
  }, 60_000);

  it("counts the primary's reloads in the summed /metrics, once, beside the workers' series", async () => {
    await writeFile(config.file, original.replace(/^models:\n/m, 'models:\n  broken-model: { vendor: no-such-vendor }\n'));
    // SIGHUP reloads too (and needs no admin key): the primary logs the failure.
    gateway.child.kill('SIGHUP');
    await waitFor(() => /reload of .* failed: generation 2 keeps serving/.test(gateway.output()), 30_000);
    // The workers apply generation 2 once the primary's message reaches them.
    let text = await scrape();
    for (let i = 0; i < 100 && sumSeries(readSeries(text), 'gateway_config_generation') !== 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      text = await scrape();
    }
    const samples = readSeries(text);
    expect(sumSeries(samples, 'gateway_reloads_total', { outcome: 'ok' })).toBe(1);
    expect(sumSeries(samples, 'gateway_reloads_total', { outcome: 'failed' })).toBe(1);
    expect(sumSeries(samples, 'gateway_config_generation')).toBe(2);
    expect(text.match(/^# TYPE gateway_reloads_total counter$/gm)).toHaveLength(1);
    expect(text).toMatch(/^# TYPE gateway_requests_total counter$/m);
  }, 60_000);
});
