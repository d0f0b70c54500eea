import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_CLIENT_KEY } from '../../src/simulate.ts';
import { runAlone } from '../helpers/run-alone.ts';
import { startCliGateway, type CliGateway } from '../helpers/start-cli-gateway.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { writeGatewayConfig, type WrittenConfig } from '../helpers/write-gateway-config.ts';
import { readSeries, sumSeries } from '../metrics/read-series.ts';

/** Multi-process test: never beside another heavy test file. */
runAlone();

const ADMIN_KEY = 'sk-admin-workers-test';

/** One chat on a fresh connection (no keep-alive), so that the workers share the requests. */
function chat(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'count me' }] });
    const req = request(`${url}/v1/chat/completions`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${SIMULATOR_CLIENT_KEY}`, 'content-type': 'application/json', connection: 'close' },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('gateway start --workers 2 with server.admin', () => {
  let config: WrittenConfig;
  let gateway: CliGateway;
  let adminUrl: string;
  beforeAll(async () => {
    config = await writeGatewayConfig((raw) => {
      raw.server.admin = { host: '127.0.0.1', port: 0 };
      delete raw.server.limits;
      raw.keys.push({ name: 'ops', key: 'env:GATEWAY_ADMIN_KEY', admin: true });
    });
    // Each worker compiles the TypeScript sources at start: slow on a busy machine.
    gateway = await startCliGateway(config.file, { GATEWAY_ADMIN_KEY: ADMIN_KEY }, ['--workers', '2'], undefined, 90_000);
    await waitFor(() => /admin listener on http/.test(gateway.output()) && (gateway.output().match(/listening on http/g) ?? []).length >= 2, 90_000);
    adminUrl = /admin listener on (http:\/\/[\d.:]+)/.exec(gateway.output())![1];
  }, 200_000);
  afterAll(async () => {
    await gateway?.stop();
    await config?.remove();
  });

  it('serves the sum over the workers on the primary admin listener', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push(await chat(gateway.url));
    expect(statuses).toEqual(Array(12).fill(200));
    // The request log lines show that more than one worker served.
    await waitFor(() => (gateway.output().match(/"msg":"request"/g) ?? []).length >= 12, 5000);
    const pids = new Set([...gateway.output().matchAll(/"pid":(\d+)[^\n]*"msg":"request"/g)].map((m) => m[1]));
    expect(pids.size).toBe(2);
    const response = await fetch(`${adminUrl}/metrics`);
    expect(response.status).toBe(200);
    const samples = readSeries(await response.text());
    expect(sumSeries(samples, 'gateway_requests_total', { route: '/v1/chat/completions', status: '200', key: 'simulator' })).toBe(12);
    expect(sumSeries(samples, 'gen_ai_server_request_duration_seconds_count', { gen_ai_request_model: 'gpt-4o' })).toBe(12);
  });

  it('answers /readyz and the admin API on the primary', async () => {
    expect((await fetch(`${adminUrl}/readyz`)).status).toBe(200);
    const status = await fetch(`${adminUrl}/admin/status`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ workers: 2, draining: false });
    expect((await fetch(`${adminUrl}/admin/status`, { headers: { authorization: `Bearer ${SIMULATOR_CLIENT_KEY}` } })).status).toBe(401);
  });
});
