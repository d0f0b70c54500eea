import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

/** A DashScope-protocol vendor whose image task fails with a message quoting the key it was called with. */
let vendor: Server;
const received: { method: string; url: string; auth: string }[] = [];
let gw: TestGateway;

beforeAll(async () => {
  vendor = createServer((req, res) => {
    const auth = String(req.headers.authorization ?? '');
    received.push({ method: req.method!, url: req.url!, auth });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.method === 'POST') res.end(JSON.stringify({ output: { task_id: 't-1', task_status: 'PENDING' }, request_id: 'r' }));
    else res.end(JSON.stringify({ output: { task_id: 't-1', task_status: 'FAILED', code: 'InternalError', message: `quota of ${auth} exceeded` }, request_id: 'r' }));
  });
  await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
  gw = await startTestGateway();
  const base = gw.gateway.getSnapshot().config;
  const config: CompiledConfig = {
    ...base,
    vendors: { ...base.vendors, 'leak-dashscope': { ...base.vendors.dashscope, name: 'leak-dashscope', baseUrl: `http://127.0.0.1:${(vendor.address() as AddressInfo).port}/api/v1` } },
    models: { ...base.models, 'leak-wan': { ...base.models['wanx2.1-t2i-turbo'], id: 'leak-wan', targets: [{ vendor: 'leak-dashscope', upstream: 'wanx2.1-t2i-turbo', weight: 1 }] } },
  };
  gw.gateway.reload(config);
});
afterAll(async () => {
  await gw.close();
  await new Promise((resolve) => vendor.close(resolve));
});

describe('a failed image task quoting the gateway key', () => {
  it('answers the task failure with the vendor key redacted from its message', async () => {
    const response = await fetch(`${gw.url}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'leak-wan', prompt: 'a lighthouse', size: '1024x1024' }),
    });
    const text = await response.text();
    const vendorKey = received[0].auth.replace('Bearer ', '');
    expect(received.map((r) => r.method)).toEqual(['POST', 'GET']);
    expect(vendorKey.length).toBeGreaterThan(8);
    expect(response.status).toBe(502);
    expect(text).not.toContain(vendorKey);
    expect(JSON.parse(text).error).toMatchObject({ code: 'upstream_task_failed', message: expect.stringContaining('quota of Bearer [redacted] exceeded') });
  });
});
