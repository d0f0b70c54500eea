import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

/** A gateway with one model whose target names a vendor that does not exist: its handler throws a TypeError. */
let gw: TestGateway;
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  gw = await startTestGateway((config: CompiledConfig) => ({
    ...config,
    models: {
      ...config.models,
      broken: { ...config.models['sim-openai-chat'], id: 'broken', targets: [{ vendor: 'no-such-vendor', upstream: 'x', weight: 1 }] },
    },
  }));
});
afterAll(async () => {
  await gw.close();
  process.off('uncaughtException', onUncaught);
});

const KEY_HEADERS = (key: string) => ({ authorization: `Bearer ${key}`, 'x-api-key': key, 'x-goog-api-key': key, 'anthropic-version': '2023-06-01' });

async function get(path: string) {
  const response = await fetch(gw.url + path, { headers: KEY_HEADERS(gw.key) });
  return { status: response.status, id: response.headers.get('x-request-id'), body: (await response.json()) as any };
}

describe('the request error boundary', () => {
  it.each(['%FF', '%', '%E0%A4', 'a%2', '%C0%AF'])('answers a malformed escape %s in /v1/models/{model} with 400 in the OpenAI shape', async (escape) => {
    const reply = await get(`/v1/models/${escape}`);
    expect(reply.status).toBe(400);
    expect(reply.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(reply.body.error).toMatchObject({ code: 'invalid_path', param: 'model', type: 'invalid_request_error' });
  });

  it('answers malformed escapes in every other templated route in its own style and keeps serving', async () => {
    const video = await get('/v1/videos/%FF');
    expect(video.status).toBe(400);
    expect(video.body.error.code).toBe('invalid_path');
    const content = await get('/v1/videos/%E0%A4/content');
    expect(content.status).toBe(400);
    const google = await fetch(`${gw.url}/v1beta/models/%FF:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': gw.key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    expect(google.status).toBe(400);
    expect(await google.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    const googleGet = await get('/v1beta/models/%');
    expect(googleGet.status).toBe(400);
    expect(googleGet.body.error.status).toBe('INVALID_ARGUMENT');
    // A well-formed escape still decodes, and the process still serves.
    const listed = await get('/v1/models/gpt-4o');
    expect(listed.status).toBe(200);
    expect(listed.body.id).toBe('gpt-4o');
    expect(uncaught).toEqual([]);
    expect(gw.sims.gemini.received).toHaveLength(0);
  });

  it('answers 400 in its own style on every templated route of the table, for each malformed escape', async () => {
    const templated = gw.config.routes.filter((route) => route.path.includes('{'));
    expect(templated.length).toBeGreaterThanOrEqual(6);
    for (const route of templated) {
      for (const escape of ['%FF', '%', '%E0%A4']) {
        const response = await fetch(gw.url + route.path.replace(/\{[^}]+\}/g, escape), {
          method: route.method,
          headers: { ...KEY_HEADERS(gw.key), 'content-type': 'application/json' },
          body: route.method === 'GET' ? undefined : JSON.stringify({ contents: [] }),
        });
        const body = (await response.json()) as any;
        expect([route.path, escape, response.status]).toEqual([route.path, escape, 400]);
        if (route.style === 'gemini') expect(body.error.status).toBe('INVALID_ARGUMENT');
        else if (route.style === 'anthropic') expect(body.type).toBe('error');
        else expect(body.error.code).toBe('invalid_path');
      }
    }
    expect(uncaught).toEqual([]);
  });

  it('turns a handler that throws into a 500 in the caller style, with its cause on the usage event', async () => {
    const event = gw.nextEvent();
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'broken', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(500);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await response.json()) as any).error).toMatchObject({ code: 'internal_error', type: 'server_error' });
    const logged = await event;
    expect(logged).toMatchObject({ status: 500, error: 'internal_error' });
    expect(logged.cause).toBeInstanceOf(TypeError);
    expect((logged.cause as Error).stack).toContain('run-model');

    const anthropic = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': gw.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'broken', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(anthropic.status).toBe(500);
    expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(uncaught).toEqual([]);
  });

  it('keeps no cause on the usage event of a request that failed for a known reason', async () => {
    const event = gw.nextEvent();
    const response = await fetch(`${gw.url}/v1/models/nope`, { headers: { authorization: `Bearer ${gw.key}` } });
    expect(response.status).toBe(404);
    expect((await event).cause).toBeUndefined();
  });
});

describe('request-scoped work outside any promise', () => {
  it('answers 500 in the OpenAI shape when the request context cannot be made', async () => {
    const { createServer } = await import('node:http');
    const { createRequestHandler } = await import('../../src/runtime/handle-request.ts');
    const { createServices } = await import('../../src/runtime/services.ts');
    const { GATEWAY_DISPATCH } = await import('../../src/gateway/dispatch.ts');
    const handler = createRequestHandler(() => {
      throw new Error('snapshot unavailable');
    }, createServices(gw.config.server), GATEWAY_DISPATCH, undefined);
    const server = createServer(handler).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/v1/models`);
      expect(response.status).toBe(500);
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(((await response.json()) as any).error).toMatchObject({ code: 'internal_error', type: 'server_error' });
    } finally {
      server.close();
    }
    expect(uncaught).toEqual([]);
  });

  it('survives a usage receiver that throws, and keeps serving', async () => {
    const { createGateway } = await import('../../src/gateway/create-gateway.ts');
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const gateway = createGateway({
      config: gw.config,
      env: {},
      onUsage: [
        () => {
          throw new Error('receiver failed');
        },
      ],
    });
    const url = await gateway.listen(0, '127.0.0.1');
    try {
      for (let i = 0; i < 2; i++) {
        const response = await fetch(`${url}/v1/models/nope`, { headers: { authorization: 'Bearer wrong' } });
        expect(response.status).toBe(401);
        await response.text();
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(warnings.map((warning) => warning.message)).toContain('receiver failed');
    } finally {
      process.off('warning', onWarning);
      await gateway.close(0);
    }
    expect(uncaught).toEqual([]);
  });
});
