import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { readReceivedModels, sendChat } from '../helpers/send-chat.ts';
import { definePolicy, defineModel, defineTarget } from '../helpers/start-policy-gateway.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

/** The usage event (the request log line) carries who asked what, how, from where, and where it went. */
function addFallbackModel(config: CompiledConfig): CompiledConfig {
  return {
    ...config,
    models: {
      ...config.models,
      'fallback-chat': defineModel('fallback-chat', [defineTarget('openai', 'first-upstream')], [defineTarget('openai', 'second-upstream')], definePolicy()),
    },
  };
}

describe('the usage event', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(addFallbackModel);
  });
  afterAll(() => gw.close());

  it('has the method, the path without its query string (no key from ?key=), the route, client, pid, target and times', async () => {
    const event = gw.nextEvent();
    const response = await fetch(`${gw.url}/v1beta/models/sim-gemini-chat:generateContent?key=${gw.key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    expect(response.status).toBe(200);
    await response.text();
    const got = await event;
    expect(got).toMatchObject({
      method: 'POST',
      path: '/v1beta/models/sim-gemini-chat:generateContent',
      route: '/v1beta/models/{model}:generateContent',
      pid: process.pid,
      vendor: 'google',
      target: 'google/gemini-2.5-flash',
      attempts: 1,
    });
    expect(JSON.stringify(got)).not.toContain(gw.key);
    // Without server.trust_proxy, X-Forwarded-For is not believed.
    expect(got.client).toMatch(/127\.0\.0\.1$/);
    expect(got.overheadMs).toBeGreaterThanOrEqual(0);
    expect(got.overheadMs).toBeLessThanOrEqual(got.durationMs);
    // Durations to the microsecond: three decimals at most.
    for (const ms of [got.ttfbMs, got.durationMs, got.overheadMs]) expect(String(ms)).toMatch(/^\d+(\.\d{1,3})?$/);
    expect(got.failedTargets).toBeUndefined();
    expect(gw.sims.gemini.received.at(-1)?.url).toContain('gemini-2.5-flash');
  });

  it('names the failed target and the attempts when a fallback served the request', async () => {
    gw.sims.openai.reset();
    gw.sims.openai.failNext({ kind: 'status', status: 500 });
    const event = gw.nextEvent();
    const reply = await sendChat(gw.url, { key: gw.key, model: 'fallback-chat' });
    expect(reply.status).toBe(200);
    expect(readReceivedModels(gw.sims.openai.received)).toEqual(['first-upstream', 'second-upstream']);
    expect(await event).toMatchObject({ attempts: 2, target: 'openai/second-upstream', failedTargets: ['openai/first-upstream'], vendorCalls: 2 });
  });
});

describe('with server.trust_proxy', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway((config) => ({ ...config, server: { ...config.server, trustProxy: true } }));
  });
  afterAll(() => gw.close());

  it("takes the client address from X-Forwarded-For's first entry, clipped", async () => {
    for (const [header, client] of [
      ['203.0.113.9, 10.0.0.1', '203.0.113.9'],
      [' 2001:db8::1 ', '2001:db8::1'],
      ['x'.repeat(500), 'x'.repeat(64)],
    ]) {
      const event = gw.nextEvent();
      const response = await fetch(`${gw.url}/v1/models`, { headers: { authorization: `Bearer ${gw.key}`, 'x-forwarded-for': header } });
      expect(response.status).toBe(200);
      await response.text();
      expect((await event).client).toBe(client);
    }
  });
});

describe('the usage event of a refused model', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  it.each([
    ['an unknown model', '<img src=x onerror=alert(1)>', '<img src=x onerror=alert(1)>'],
    ['a 5,000-character model name, clipped', 'm'.repeat(5000), `${'m'.repeat(256)}… (4744 more characters)`],
  ])('names what was asked for: %s', async (_, asked, logged) => {
    const event = gw.nextEvent();
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: asked, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(404);
    expect(await event).toMatchObject({ status: 404, error: 'model_not_found', model: logged });
  });
});
