import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendChat, type ChatStyle } from '../helpers/send-chat.ts';
import { ADMIN_SECRET, startAdminGateway, type AdminGateway } from '../helpers/start-admin-gateway.ts';

/** Who reaches the admin API: an admin key in `Authorization: Bearer`, nobody else, in no other way. */
let gw: AdminGateway;
beforeAll(async () => {
  gw = await startAdminGateway();
});
afterAll(() => gw.close());

describe('the admin API', () => {
  it('answers an admin key from the Authorization header, without any secret in the answer', async () => {
    const reply = await gw.getAdmin('/admin/status', { authorization: `Bearer ${ADMIN_SECRET}` });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ pid: process.pid, generation: 1, draining: false });
    expect(reply.text).not.toContain(ADMIN_SECRET);
    expect(reply.text).not.toContain(gw.key);
  });

  it('refuses a request without a key with 401 missing_admin_key in JSON', async () => {
    const reply = await gw.getAdmin('/admin/status');
    expect(reply.status).toBe(401);
    expect(reply.json).toEqual({ error: { code: 'missing_admin_key', message: expect.any(String) } });
    expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('refuses a client key: client keys never reach the admin API', async () => {
    const reply = await gw.getAdmin('/admin/status', { authorization: `Bearer ${gw.key}` });
    expect(reply.status).toBe(401);
    expect(reply.json.error.code).toBe('invalid_admin_key');
  });

  it('never reads an admin key from the query string', async () => {
    for (const name of ['key', 'api_key', 'token', 'access_token']) {
      const reply = await gw.getAdmin(`/admin/status?${name}=${ADMIN_SECRET}`);
      expect(reply.status).toBe(401);
      expect(reply.json.error.code).toBe('missing_admin_key');
    }
  });

  it('never reads an admin key from a cookie or another header', async () => {
    const attempts: Record<string, string>[] = [
      { cookie: `authorization=Bearer ${ADMIN_SECRET}; key=${ADMIN_SECRET}` },
      { 'x-api-key': ADMIN_SECRET },
      { 'x-goog-api-key': ADMIN_SECRET },
      { authorization: `Basic ${Buffer.from(`ops:${ADMIN_SECRET}`).toString('base64')}` },
      { authorization: ADMIN_SECRET },
    ];
    for (const headers of attempts) {
      const reply = await gw.getAdmin('/admin/status', headers);
      expect(reply.status).toBe(401);
    }
  });

  it('asks for the admin key before saying whether an admin path exists', async () => {
    expect((await gw.getAdmin('/admin/no-such-thing')).status).toBe(401);
    const known = await gw.getAdmin('/admin/no-such-thing', { authorization: `Bearer ${ADMIN_SECRET}` });
    expect(known.status).toBe(404);
    expect(known.json.error.code).toBe('route_not_found');
  });

  it('serves /metrics and /healthz without a key', async () => {
    expect((await gw.getAdmin('/metrics')).status).toBe(200);
    expect((await gw.getAdmin('/healthz')).json).toEqual({ status: 'ok' });
  });
});

describe('an admin key on a model route', () => {
  const models: Record<ChatStyle, string> = { openai: 'sim-openai-chat', anthropic: 'sim-anthropic-chat', gemini: 'sim-gemini-chat' };
  for (const style of ['openai', 'anthropic', 'gemini'] as ChatStyle[]) {
    it(`is refused 403 admin_key_not_for_models in the ${style} style, and no vendor is called`, async () => {
      const sims = [gw.sims.openai, gw.sims.anthropic, gw.sims.gemini];
      const before = sims.map((sim) => sim.received.length);
      const reply = await sendChat(gw.url, { style, key: ADMIN_SECRET, model: models[style] });
      expect(reply.status).toBe(403);
      const code = style === 'gemini' ? reply.json.error.status : style === 'anthropic' ? reply.json.error.type : reply.json.error.code;
      if (style === 'openai') expect(code).toBe('admin_key_not_for_models');
      else expect(reply.text).toContain('admin key');
      expect(sims.map((sim) => sim.received.length)).toEqual(before);
    });
  }
});
