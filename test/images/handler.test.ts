import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompiledConfig, ImageOptions, ModelEntry } from '../../src/config/types.ts';
import { TINY_PNG } from '../../src/simulators/media.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;
const imageDir = mkdtempSync(join(tmpdir(), 'gateway-handler-images-'));
const PUBLIC_URL = 'https://images.gateway.test';

/** A copy of model `id` named `name` with other image options. */
function variant(config: CompiledConfig, id: string, name: string, images: Partial<ImageOptions>): [string, ModelEntry] {
  const model = config.models[id];
  return [name, { ...model, id: name, images: { ...model.images!, ...images } }];
}

beforeAll(async () => {
  gw = await startTestGateway((config) => ({
    ...config,
    server: { ...config.server, imageDir },
    models: {
      ...config.models,
      ...Object.fromEntries([
        variant(config, 'wanx2.1-t2i-turbo', 'wan-no-b64', { b64FromUrl: false }),
        variant(config, 'wanx2.1-t2i-turbo', 'wan-quick-timeout', { pollTimeoutMs: 100 }),
        variant(config, 'wanx2.1-t2i-turbo', 'wan-rehost', { rehost: true }),
        variant(config, 'dall-e-2', 'dall-e-2-drop-style', { styleUnsupported: 'drop' }),
        variant(config, 'dall-e-3', 'dall-e-3-split', { splitN: true }),
        variant(config, 'dall-e-3', 'dall-e-3-plain', { rehost: false }),
      ]),
    },
  }));
});
afterAll(async () => {
  await gw.close();
  rmSync(imageDir, { recursive: true, force: true });
});
beforeEach(() => {
  gw.sims.openai.reset();
  gw.sims.dashscope.reset();
});

async function post(body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${gw.url}/v1/images/generations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as any };
}

function vendorBodies(sim: 'openai' | 'dashscope'): any[] {
  return gw.sims[sim].received.filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body.toString()));
}

describe('image generation handler', () => {
  it('sends n=1 to an envelope vendor when the client sent no n (the vendor would make 4)', async () => {
    const { status, json } = await post({ model: 'wanx2.1-t2i-turbo', prompt: 'a fox' });
    expect(status).toBe(200);
    expect(json.data).toHaveLength(1);
    expect(vendorBodies('dashscope')).toEqual([{ model: 'wanx2.1-t2i-turbo', input: { prompt: 'a fox' }, parameters: { n: 1 } }]);
  });

  it('adds no default the client did not send to a shape A vendor', async () => {
    const { status } = await post({ model: 'dall-e-3-plain', prompt: 'a fox' });
    expect(status).toBe(200);
    expect(vendorBodies('openai')).toEqual([{ model: 'dall-e-3', prompt: 'a fox' }]);
  });

  it('answers the vendor URLs unchanged for a model without rehost', async () => {
    const { json } = await post({ model: 'dall-e-3-plain', prompt: 'a fox' });
    expect(json.data[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/img-/);
  });

  it('leaves revised_prompt out when the vendor reports no rewritten prompt', async () => {
    const { json } = await post({ model: 'wanx2.1-t2i-turbo', input: { prompt: 'a fox' }, parameters: { prompt_extend: false } });
    expect(json.data).toEqual([{ url: expect.any(String) }]);
  });

  it('downloads the images of a URL-only vendor for response_format b64_json', async () => {
    const { status, json } = await post({ model: 'wanx2.1-t2i-turbo', prompt: 'a fox', n: 2, response_format: 'b64_json' });
    expect(status).toBe(200);
    expect(json.data.map((d: any) => Buffer.from(d.b64_json, 'base64'))).toEqual([TINY_PNG, TINY_PNG]);
    expect(json.data[0].url).toBeUndefined();
    expect(vendorBodies('dashscope')[0].response_format).toBeUndefined();
    expect(gw.sims.dashscope.received.filter((r) => r.url.startsWith('/files/'))).toHaveLength(2);
  });

  it('answers 400 for b64_json where the model turns downloading off, calling no vendor', async () => {
    const { status, json } = await post({ model: 'wan-no-b64', prompt: 'a fox', response_format: 'b64_json' });
    expect(status).toBe(400);
    expect(json.error.param).toBe('response_format');
    expect(gw.sims.dashscope.received).toEqual([]);
  });

  it('answers base64 from a base64-only model whatever was asked, and records its usage', async () => {
    const event = gw.nextEvent();
    const { status, json } = await post({ model: 'gpt-image-1', prompt: 'a fox', response_format: 'url', size: 'auto', quality: 'low' });
    expect(status).toBe(200);
    expect(Buffer.from(json.data[0].b64_json, 'base64')).toEqual(TINY_PNG);
    expect(json.usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: 1056 });
    expect(vendorBodies('openai')).toEqual([{ model: 'gpt-image-1', prompt: 'a fox', size: 'auto', quality: 'low' }]);
    expect((await event).usage).toMatchObject({ outputTokens: 1056, totalTokens: json.usage.total_tokens });
  });

  it('maps a base64-only model’s moderation_blocked to content_policy_violation', async () => {
    const { status, json } = await post({ model: 'gpt-image-1', prompt: 'forbidden' });
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ code: 'content_policy_violation', type: 'invalid_request_error' });
  });

  it('drops style on a model without styles where the YAML says drop', async () => {
    const { status } = await post({ model: 'dall-e-2-drop-style', prompt: 'a fox', style: 'vivid' });
    expect(status).toBe(200);
    expect(vendorBodies('openai')).toEqual([{ model: 'dall-e-2', prompt: 'a fox' }]);
  });

  it('answers 502 upstream_auth_failed without the vendor’s message when the vendor rejects the gateway key', async () => {
    gw.sims.openai.failNext({
      kind: 'status',
      status: 401,
      body: { error: { message: 'Incorrect API key provided: sk-sim-****abcd', type: 'invalid_request_error', code: 'invalid_api_key' } },
    });
    const { status, json } = await post({ model: 'dall-e-3', prompt: 'a fox' });
    expect(status).toBe(502);
    expect(json.error.code).toBe('upstream_auth_failed');
    expect(JSON.stringify(json)).not.toContain('sk-sim');
  });

  it('fails the whole split request when one part fails, answering no partial images', async () => {
    gw.sims.openai.failNext({ kind: 'status', status: 500 });
    const { status, json } = await post({ model: 'dall-e-3-split', prompt: 'a fox', n: 3 });
    expect(status).toBeGreaterThanOrEqual(500);
    expect(json.data).toBeUndefined();
    expect(json.error).toBeDefined();
  });

  it('answers 504 when the task does not finish within the model’s poll_timeout', async () => {
    const started = Date.now();
    const { status, json } = await post({ model: 'wan-quick-timeout', prompt: 'a fox' });
    expect(status).toBe(504);
    expect(json.error.code).toBe('upstream_timeout');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(gw.sims.dashscope.received.filter((r) => r.method === 'GET').length).toBeLessThanOrEqual(1);
  });

  it('keeps polling through a throttled task lookup', async () => {
    const pending = post({ model: 'wanx2.1-t2i-turbo', prompt: 'a fox' });
    while (gw.sims.dashscope.received.length === 0) await sleep(5);
    gw.sims.dashscope.failNext({ kind: 'status', status: 429 });
    const { status, json } = await pending;
    expect(status).toBe(200);
    expect(json.data).toHaveLength(1);
    expect(gw.sims.dashscope.received.filter((r) => r.method === 'GET').length).toBe(4);
  });

  it('links re-hosted images under the Host the client used', async () => {
    const { json } = await post({ model: 'wan-rehost', prompt: 'a fox' });
    expect(json.data[0].url.startsWith(`${gw.url}/files/images/`)).toBe(true);
    const served = await fetch(json.data[0].url);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(TINY_PNG);
  });

  it('answers 400 naming model for a model without image options', async () => {
    const { status, json } = await post({ model: 'gpt-4o', prompt: 'a fox' });
    expect(status).toBe(400);
    expect(json.error.param).toBe('model');
    expect(gw.sims.openai.received).toEqual([]);
  });
});

describe('image links with server.public_url', () => {
  let publicGw: TestGateway;
  beforeAll(async () => {
    publicGw = await startTestGateway((config) => ({ ...config, server: { ...config.server, imageDir, publicUrl: PUBLIC_URL } }));
  });
  afterAll(() => publicGw.close());

  it('uses the configured public URL as the base of re-hosted links', async () => {
    const response = await fetch(`${publicGw.url}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${publicGw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'dall-e-3', prompt: 'a fox' }),
    });
    const json = (await response.json()) as any;
    expect(json.data[0].url).toMatch(new RegExp(`^${PUBLIC_URL}/files/images/[A-Za-z0-9_-]{32}\\.png$`));
    const path = new URL(json.data[0].url).pathname;
    const served = await fetch(`${publicGw.url}${path}`);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(TINY_PNG);
  });
});
