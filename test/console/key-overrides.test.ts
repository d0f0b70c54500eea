import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readReceivedModels } from '../helpers/send-chat.ts';
import { TEAM_SECRET, startConsoleGateway, type ConsoleGateway } from '../helpers/start-console-gateway.ts';

/** Console overrides over gateway.yaml's keys, through the admin API, as official SDK clients see them. */
let gw: ConsoleGateway;
beforeAll(async () => {
  gw = await startConsoleGateway();
});
afterAll(() => gw.close());

const clientOf = (key: string) => new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
const ask = (key: string, model = 'sim-openai-chat') => clientOf(key).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
const statusOf = (call: Promise<unknown>) => call.then(() => 200, (error: { status?: number }) => error.status);

describe('changing a key in the console', () => {
  it('lowers its rpm at once: its next request is 429, and the vendor never sees it', async () => {
    expect((await ask(TEAM_SECRET)).choices[0].message.content).toBe('Echo: hi');
    const changed = await gw.callAdmin('/admin/keys/limits', { body: { name: 'team', limits: { rpm: 1 } } });
    expect(changed.status).toBe(200);
    expect(changed.json.overrides.keys.team).toEqual({ limits: { rpm: 1 } });
    const seen = gw.sims.openai.received.length;
    expect(await statusOf(ask(TEAM_SECRET))).toBe(429);
    expect(gw.sims.openai.received.length).toBe(seen);
    const keys = await gw.callAdmin('/admin/keys');
    expect(keys.json.keys.find((key: any) => key.name === 'team')).toMatchObject({ limits: { rpm: 1 }, overridden: true, disabled: false });
  });

  it('logs each change with the admin key name, the before and the after', () => {
    const change = gw.logs.find((line) => line.msg === 'console override changed' && line.key === 'team');
    expect(change).toMatchObject({ admin: 'ops', before: null, after: { limits: { rpm: 1 } } });
  });

  it('refuses limits gateway.yaml could not hold, with 400 invalid_override naming the field', async () => {
    for (const limits of [{ rpm: -1 }, { rpm: 'ten' }, { burst: 3 }]) {
      const reply = await gw.callAdmin('/admin/keys/limits', { body: { name: 'team', limits } });
      expect(reply.status).toBe(400);
      expect(reply.json.error.code).toBe('invalid_override');
      expect(reply.json.error.message).toMatch(/limits/);
    }
    expect((await gw.callAdmin('/admin/keys/limits', { body: { name: 'nobody', limits: {} } })).json.error.code).toBe('key_not_found');
    expect((await gw.callAdmin('/admin/keys/limits', { body: { name: 'ops', limits: {} } })).json.error.code).toBe('admin_key_not_overridable');
    const bad = await fetch(`${gw.adminUrl}/admin/keys/limits`, { method: 'POST', headers: { authorization: `Bearer ${'sk-console-ops-secret'}` }, body: '{not json' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('invalid_json');
  });

  it('sets a budget the key is then held to (429 budget_exceeded), and removes it again', async () => {
    const set = await gw.callAdmin('/admin/keys/limits', { body: { name: 'team', limits: { rpm: 100 }, budget: { usd: 0.000001, period: 'day' } } });
    expect(set.json.overrides.keys.team).toEqual({ limits: { rpm: 100 }, budget: { usd: 0.000001, period: 'day' } });
    // gpt-4o-mini has a price in gateway.yaml: its reservation is more than the budget.
    const refused = await ask(TEAM_SECRET, 'gpt-4o-mini').catch((error) => error);
    expect(refused.status).toBe(429);
    expect(refused.code).toBe('budget_exceeded');
    expect((await gw.callAdmin('/admin/keys/limits', { body: { name: 'team', limits: { rpm: 100 }, budget: { usd: 5, period: 'week' } } })).status).toBe(400);
    await gw.callAdmin('/admin/keys/limits', { body: { name: 'team', limits: { rpm: 100 }, budget: null } });
    expect(await statusOf(ask(TEAM_SECRET, 'gpt-4o-mini'))).toBe(200);
  });

  it('disables a key (401 like an unknown key) and enables it again', async () => {
    await gw.callAdmin('/admin/keys/limits', { body: { name: 'team', limits: { rpm: 100 } } });
    expect((await gw.callAdmin('/admin/keys/disable', { body: { name: 'team' } })).status).toBe(200);
    expect(await statusOf(ask(TEAM_SECRET))).toBe(401);
    const listed = (await gw.callAdmin('/admin/keys')).json.keys.find((key: any) => key.name === 'team');
    expect(listed.disabled).toBe(true);
    expect((await gw.callAdmin('/admin/keys/enable', { body: { name: 'team' } })).status).toBe(200);
    expect(await statusOf(ask(TEAM_SECRET))).toBe(200);
  });

  it('issues a key: the secret is answered once, stored only as its sha256, and calls its models', async () => {
    const issued = await gw.callAdmin('/admin/keys/issue', { body: { name: 'fresh', models: ['sim-openai-*'], limits: { rpm: 5 } } });
    expect(issued.status).toBe(201);
    const secret: string = issued.json.secret;
    expect(secret).toMatch(/^gwk-[A-Za-z0-9_-]{43}$/);
    const stored = await readFile(join(gw.configDir, '.gateway-overrides.json'), 'utf8');
    expect(stored).not.toContain(secret);
    expect(JSON.parse(stored).issued[0]).toMatchObject({ name: 'fresh', models: ['sim-openai-*'], limits: { rpm: 5 }, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect((await ask(secret)).choices[0].message.content).toBe('Echo: hi');
    expect(readReceivedModels(gw.sims.openai.received).at(-1)).toBe('gpt-4o-mini');
    const other = clientOf(secret).chat.completions.create({ model: 'sim-anthropic-chat', messages: [{ role: 'user', content: 'hi' }] });
    expect(await statusOf(other)).toBe(403);
    const listing = await gw.callAdmin('/admin/keys');
    expect(listing.text).not.toContain(secret);
    expect(listing.text).not.toContain(JSON.parse(stored).issued[0].sha256);
    expect(listing.json.keys.find((key: any) => key.name === 'fresh')).toMatchObject({ issued: true, limits: { rpm: 5 } });
    const again = await gw.callAdmin('/admin/keys/issue', { body: { name: 'team', models: ['*'] } });
    expect(again.status).toBe(409);
    expect((await gw.callAdmin('/admin/keys/issue', { body: { name: 'x', models: ['*'], admin: true } })).status).toBe(400);
  });

  it('exports the overrides as a YAML patch of keys, then clears them back to gateway.yaml', async () => {
    const patch = await gw.callAdmin('/admin/overrides?format=yaml');
    expect(patch.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    const keys = parse(patch.text).keys;
    expect(keys).toEqual(expect.arrayContaining([
      { name: 'team', limits: { rpm: 100 }, budget: null },
      expect.objectContaining({ name: 'fresh', models: ['sim-openai-*'], sha256: expect.any(String) }),
    ]));
    expect((await gw.callAdmin('/admin/overrides/clear', { body: {} })).json.overrides).toEqual({ keys: {}, issued: [] });
    const names = (await gw.callAdmin('/admin/keys')).json.keys.map((key: any) => key.name);
    expect(names).not.toContain('fresh');
  });
});

describe('overrides kept with the memory store', () => {
  it('are read again by a gateway started on the same folder (a restart)', async () => {
    await gw.callAdmin('/admin/keys/disable', { body: { name: 'team' } });
    const restarted = await startConsoleGateway({ configDir: gw.configDir });
    try {
      expect((await restarted.callAdmin('/admin/overrides')).json.overrides.keys).toEqual({ team: { disabled: true } });
      const reply = await new OpenAI({ apiKey: TEAM_SECRET, baseURL: `${restarted.url}/v1`, maxRetries: 0 })
        .chat.completions.create({ model: 'sim-openai-chat', messages: [{ role: 'user', content: 'hi' }] })
        .then(() => 200, (error: { status?: number }) => error.status);
      expect(reply).toBe(401);
    } finally {
      await restarted.close();
    }
  });
});
