import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_CLIENT_KEY } from '../../src/simulate.ts';
import { sendChat } from '../helpers/send-chat.ts';
import { startCliGateway, type CliGateway } from '../helpers/start-cli-gateway.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { writeGatewayConfig, type WrittenConfig } from '../helpers/write-gateway-config.ts';
import { readSeries, sumSeries } from '../metrics/read-series.ts';

const ADMIN_KEY = 'sk-admin-cli-test';

/** `gateway start` with server.admin: one process serves the gateway and, on a second port, the admin listener. */
describe('gateway start with server.admin', () => {
  let config: WrittenConfig;
  let gateway: CliGateway;
  let adminUrl: string;
  beforeAll(async () => {
    config = await writeGatewayConfig((raw) => {
      raw.server.admin = { host: '127.0.0.1', port: 0 };
      raw.server.trust_proxy = true;
      raw.keys.push({ name: 'ops', key: 'env:GATEWAY_ADMIN_KEY', admin: true });
    });
    gateway = await startCliGateway(config.file, { GATEWAY_ADMIN_KEY: ADMIN_KEY }, [], undefined, 90_000);
    await waitFor(() => /admin listener on http/.test(gateway.output()), 10_000);
    adminUrl = /admin listener on (http:\/\/[\d.:]+)/.exec(gateway.output())![1];
  }, 120_000);
  afterAll(async () => {
    await gateway?.stop();
    await config?.remove();
  });

  it('counts requests in /metrics, logs the new fields, and keeps the admin API to the admin key', async () => {
    expect(adminUrl).not.toBe(gateway.url);
    const reply = await sendChat(gateway.url, { style: 'anthropic', key: SIMULATOR_CLIENT_KEY, model: 'claude-sonnet-4-6' });
    expect(reply.status).toBe(200);
    expect((await sendChat(gateway.url, { key: ADMIN_KEY, model: 'gpt-4o' })).status).toBe(403);
    const samples = readSeries(await (await fetch(`${adminUrl}/metrics`)).text());
    expect(sumSeries(samples, 'gateway_requests_total', { style: 'anthropic', route: '/v1/messages', status: '200' })).toBe(1);
    expect(sumSeries(samples, 'gateway_requests_total', { status: '403', route: '/v1/chat/completions' })).toBe(1);
    await waitFor(() => (gateway.output().match(/"msg":"request"/g) ?? []).length >= 2);
    const line = JSON.parse(gateway.output().split('\n').find((l) => l.includes('"route":"/v1/messages"'))!);
    expect(line).toMatchObject({ method: 'POST', path: '/v1/messages', attempts: 1, vendor: 'anthropic', status: 200 });
    expect(line.overheadMs).toBeGreaterThanOrEqual(0);
    expect((await fetch(`${adminUrl}/admin/status`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } })).status).toBe(200);
    expect((await fetch(`${adminUrl}/admin/status`, { headers: { authorization: `Bearer ${SIMULATOR_CLIENT_KEY}` } })).status).toBe(401);
    expect((await fetch(`${adminUrl}/readyz`)).status).toBe(200);
    // The main port keeps only /healthz: no metrics there.
    expect((await fetch(`${gateway.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
  });
});
