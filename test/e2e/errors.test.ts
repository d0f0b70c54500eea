import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { EXPECTED_TYPES } from '../errors/error-types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;
const NARROW_KEY = 'sk-narrow-test-key';

beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => ({
    ...config,
    server: { ...config.server, bodyLimitBytes: 64 * 1024 },
    keys: [
      ...config.keys,
      { name: 'narrow', secret: { sha256: createHash('sha256').update(NARROW_KEY).digest('hex') }, models: ['gpt-*'], limits: {}, strict: false },
    ],
  }));
});
afterAll(() => gw.close());
beforeEach(() => {
  for (const sim of [gw.sims.openai, gw.sims.anthropic, gw.sims.gemini]) sim.reset();
});

type Style = 'openai' | 'anthropic' | 'gemini';
const CHAT: Record<Style, { path: (model: string) => string; body: (model: string) => object; auth: (key: string) => Record<string, string> }> = {
  openai: {
    path: () => '/v1/chat/completions',
    body: (model) => ({ model, messages: [{ role: 'user', content: 'x' }] }),
    auth: (key) => ({ authorization: `Bearer ${key}` }),
  },
  anthropic: {
    path: () => '/v1/messages',
    body: (model) => ({ model, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
    auth: (key) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }),
  },
  gemini: {
    path: (model) => `/v1beta/models/${model}:generateContent`,
    body: () => ({ contents: [{ role: 'user', parts: [{ text: 'x' }] }] }),
    auth: (key) => ({ 'x-goog-api-key': key }),
  },
};
/** The code of a vendor's own 429, as its protocol adapter reads it (the OpenAI shape shows it). */
const VENDOR_429_CODE: Record<Style, string> = { openai: 'rate_limit_exceeded', anthropic: 'rate_limit_error', gemini: 'RESOURCE_EXHAUSTED' };
const MODEL: Record<Style, string> = { openai: 'sim-openai-chat', anthropic: 'sim-anthropic-chat', gemini: 'sim-gemini-chat' };

async function call(style: Style, options: { key?: string | null; model?: string; body?: string; path?: string } = {}) {
  const model = options.model ?? MODEL[style];
  const spec = CHAT[style];
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(options.key === null ? {} : spec.auth(options.key ?? gw.key)) };
  const response = await fetch(gw.url + (options.path ?? spec.path(model)), {
    method: 'POST',
    headers,
    body: options.body ?? JSON.stringify(spec.body(model)),
  });
  return { status: response.status, requestId: response.headers.get('x-request-id'), retryAfter: response.headers.get('retry-after'), body: (await response.json()) as any };
}

/**
 * Checks the body is exactly the style's own error shape for `status` (the type or status each vendor
 * documents for it, see test/errors/error-types.ts) with the gateway's error `code` (OpenAI names it in
 * the body; the other shapes have no field for it), and returns its message.
 */
function expectShape(style: Style, status: number, body: any, code: string): string {
  const expected = EXPECTED_TYPES[status][style];
  if (style === 'openai') {
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
    expect(body.error).toMatchObject({ type: expected, code });
    return body.error.message;
  }
  if (style === 'anthropic') {
    expect(Object.keys(body).sort()).toEqual(['error', 'request_id', 'type']);
    expect(body.type).toBe('error');
    expect(Object.keys(body.error).sort()).toEqual(['message', 'type']);
    expect(body.error.type).toBe(expected);
    expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    return body.error.message;
  }
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'status']);
  expect(body.error.code).toBe(status);
  expect(body.error.status).toBe(expected);
  return body.error.message;
}

describe.each(['openai', 'anthropic', 'gemini'] as Style[])('errors in the %s style', (style) => {
  it('401 without a key', async () => {
    const r = await call(style, { key: null });
    expect(r.status).toBe(401);
    expect(expectShape(style, 401, r.body, 'missing_api_key')).toMatch(/^No API key provided/);
    expect(r.requestId).toMatch(/^[0-9a-f-]{36}$/);
    if (style === 'anthropic') expect(r.body.request_id).toBe(r.requestId);
    expect(gw.sims.openai.received.length + gw.sims.anthropic.received.length + gw.sims.gemini.received.length).toBe(0);
  });

  it('401 with a wrong key', async () => {
    const r = await call(style, { key: 'sk-wrong' });
    expect(r.status).toBe(401);
    expect(expectShape(style, 401, r.body, 'invalid_api_key')).toBe('Incorrect API key provided.');
  });

  it('403 for a model the key may not use', async () => {
    const r = await call(style, { key: NARROW_KEY });
    expect(r.status).toBe(403);
    expect(expectShape(style, 403, r.body, 'model_not_allowed')).toBe(`This key may not use the model "${MODEL[style]}".`);
  });

  it('404 for an unknown model', async () => {
    const r = await call(style, { model: 'no-such-model' });
    expect(r.status).toBe(404);
    expect(expectShape(style, 404, r.body, 'model_not_found')).toBe('The model "no-such-model" does not exist.');
  });

  it('400 for malformed JSON', async () => {
    const r = await call(style, { body: '{"model": "x", ' });
    expect(r.status).toBe(400);
    expect(expectShape(style, 400, r.body, 'invalid_json')).toMatch(/^The request body is not valid JSON: /);
  });

  it('413 for a body over the limit', async () => {
    const r = await call(style, { body: JSON.stringify({ model: MODEL[style], padding: 'x'.repeat(70 * 1024) }) });
    expect(r.status).toBe(413);
    expect(expectShape(style, 413, r.body, 'request_too_large')).toBe(`The request body exceeds the limit of ${64 * 1024} bytes.`);
  });

  it('502 upstream_auth_failed when the vendor rejects the gateway key, without its message', async () => {
    const sim = gw.sims[style];
    sim.failNext({ kind: 'status', status: 401 });
    const r = await call(style);
    expect(r.status).toBe(502);
    const message = expectShape(style, 502, r.body, 'upstream_auth_failed');
    expect(message).toMatch(/^Vendor "[a-z]+" rejected the gateway's credentials\.$/);
    expect(message).not.toMatch(/sk-|key provided|x-api-key|API key not valid/i);
  });

  it("passes the vendor's 429 on in the caller's shape", async () => {
    gw.sims[style].failNext({ kind: 'status', status: 429 });
    const r = await call(style);
    expect(r.status).toBe(429);
    expectShape(style, 429, r.body, VENDOR_429_CODE[style]);
    expect(r.retryAfter).toBe('1');
  });

  it('502 when the vendor answers garbage', async () => {
    gw.sims[style].failNext({ kind: 'garbage' });
    const r = await call(style);
    expect(r.status).toBe(502);
    expectShape(style, 502, r.body, 'upstream_invalid_response');
  });

  it('502 when the vendor resets the connection before headers', async () => {
    gw.sims[style].failNext({ kind: 'reset-before-headers' });
    const r = await call(style);
    expect(r.status).toBe(502);
    expectShape(style, 502, r.body, 'upstream_unreachable');
  });
});

describe('errors that do not depend on the model', () => {
  it('404 for an unknown route, in the style of its path', async () => {
    const openai = await fetch(`${gw.url}/v1/nothing`, { headers: { authorization: `Bearer ${gw.key}` } });
    expect(openai.status).toBe(404);
    expect(((await openai.json()) as any).error.code).toBe('route_not_found');
    const gemini = await fetch(`${gw.url}/v1beta/nothing`);
    expect(((await gemini.json()) as any).error.status).toBe('NOT_FOUND');
  });

  it('400 naming the field that breaks the schema', async () => {
    const r = await call('openai', { body: JSON.stringify({ model: 'sim-openai-chat', messages: 'not-an-array' }) });
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe('messages');
    expect(r.body.error.message).toContain('messages');
  });

  it('504 when the vendor does not answer in time, and 502 when it cannot be reached', async () => {
    // Port 1 (tcpmux) is privileged and unused: connections are refused at once, and no test can take it.
    const deadPort = 1;
    const base = gw.gateway.getSnapshot().config;
    const openai = base.vendors.openai;
    gw.gateway.reload({
      ...base,
      vendors: {
        ...base.vendors,
        slow: { ...openai, name: 'slow', timeouts: { headersMs: 200, bodyMs: 200 } },
        dead: { ...openai, name: 'dead', baseUrl: `http://127.0.0.1:${deadPort}/v1` },
      },
      models: {
        ...base.models,
        'slow-model': { ...base.models['sim-openai-chat'], id: 'slow-model', targets: [{ vendor: 'slow', upstream: 'gpt-4o', weight: 1 }] },
        'dead-model': { ...base.models['sim-openai-chat'], id: 'dead-model', targets: [{ vendor: 'dead', upstream: 'gpt-4o', weight: 1 }] },
      },
    });
    try {
      gw.sims.openai.failNext({ kind: 'hang' });
      const slow = await call('openai', { model: 'slow-model' });
      expect(slow.status).toBe(504);
      expect(slow.body.error.code).toBe('upstream_timeout');
      const unreachable = await call('openai', { model: 'dead-model' });
      expect(unreachable.status).toBe(502);
      expect(unreachable.body.error.code).toBe('upstream_unreachable');
    } finally {
      gw.gateway.reload(base);
    }
  });
});
