import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminListener } from '../../src/admin/create-admin-app.ts';
import type { AdminSources } from '../../src/admin/types.ts';
import { OPS_SECRET, TEAM_SECRET, startConsoleGateway, type ConsoleGateway } from '../helpers/start-console-gateway.ts';

/** The console's page on the admin listener: its files, their headers, and who may sign in. */
let gw: ConsoleGateway;
beforeAll(async () => {
  gw = await startConsoleGateway({ signInLimit: { failures: 3, windowMs: 60_000 } });
});
afterAll(() => gw.close());

describe('the console page', () => {
  it('is served under /console/ with the CSP that allows only its own files, nosniff and no framing', async () => {
    const page = await fetch(`${gw.adminUrl}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe("default-src 'self'; frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/console/app.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);
    const script = await fetch(`${gw.adminUrl}/console/app.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const code = await script.text();
    expect(code).toContain('/admin/console/session');
    expect(code).not.toContain('innerHTML');
    expect(code).not.toMatch(/document\.cookie|EventSource/);
    expect((await fetch(`${gw.adminUrl}/console/app.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('is the same page at /console', async () => {
    const reply = await fetch(`${gw.adminUrl}/console`);
    expect(reply.status).toBe(200);
    expect(await reply.text()).toContain('/console/app.js');
  });

  it('signs in an admin key, and refuses a client key with 401 invalid_admin_key', async () => {
    const ok = await gw.callAdmin('/admin/console/session');
    expect(ok).toMatchObject({ status: 200, json: { name: 'ops' } });
    expect(ok.headers.get('content-security-policy')).toBe("default-src 'self'; frame-ancestors 'none'");
    const client = await gw.callAdmin('/admin/console/session', { key: TEAM_SECRET });
    expect(client.status).toBe(401);
    expect(client.json.error.code).toBe('invalid_admin_key');
  });

  it('lists models with vendor, upstream, targets and the styles reaching them natively or by translation', async () => {
    const { json } = await gw.callAdmin('/admin/models');
    expect(json.models.find((model: any) => model.id === 'sim-openai-chat')).toEqual({
      id: 'sim-openai-chat', vendor: 'openai', upstream: 'gpt-4o-mini', targets: [{ vendor: 'openai', upstream: 'gpt-4o-mini', weight: 1 }],
      fallbacks: [], styles: { native: ['openai'], translated: ['anthropic', 'gemini'] },
    });
    const keys = await gw.callAdmin('/admin/keys');
    expect(keys.json.keys.find((key: any) => key.name === 'team')).toMatchObject({ models: ['*'], limits: { rpm: 100 }, admin: false, disabled: false });
    expect(keys.text).not.toMatch(/sha256|sk-console|TEAM_KEY|"env"/);
  });

  it('is not served, and its API answers 404 console_off, when server.console is off', async () => {
    const sources: AdminSources = { readMetrics: async () => '', readNotReady: () => [], findAdminKey: (k) => (k === OPS_SECRET ? 'ops' : undefined), readStatus: () => ({}) };
    const server = createServer(createAdminListener(sources));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${url}/console/`)).status).toBe(404);
      const api = await fetch(`${url}/admin/keys`, { headers: { authorization: `Bearer ${OPS_SECRET}` } });
      expect(api.status).toBe(404);
      expect((await api.json()).error.code).toBe('console_off');
    } finally {
      server.close();
    }
  });
});

describe('failed sign-ins', () => {
  let fresh: ConsoleGateway;
  beforeAll(async () => {
    fresh = await startConsoleGateway({ signInLimit: { failures: 3, windowMs: 60_000 } });
  });
  afterAll(() => fresh.close());

  it('are logged with the client address, then refused with 429 and Retry-After, even with the right key', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await fresh.callAdmin('/admin/console/session', { key: `sk-wrong-${i}` })).status).toBe(401);
    }
    const refusals = fresh.logs.filter((line) => line.msg === 'admin sign-in refused: not an admin key');
    expect(refusals.map((line) => line.failures)).toEqual([1, 2, 3]);
    expect(refusals.at(-1)).toMatchObject({ client: '127.0.0.1', level: 40 });
    expect(JSON.stringify(fresh.logs)).not.toContain('sk-wrong-');
    const blocked = await fresh.callAdmin('/admin/console/session');
    expect(blocked.status).toBe(429);
    expect(blocked.json.error.code).toBe('too_many_failed_sign_ins');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
