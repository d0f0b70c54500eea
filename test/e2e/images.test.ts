import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompiledConfig, ModelEntry } from '../../src/config/types.ts';
import { TINY_PNG } from '../../src/simulators/media.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;
let client: OpenAI;
const imageDir = mkdtempSync(join(tmpdir(), 'gateway-e2e-images-'));

/** A copy of model `id` under another name with splitting turned on. */
function withSplit(config: CompiledConfig, id: string): ModelEntry {
  const model = config.models[id];
  return { ...model, id: `${id}-split`, images: { ...model.images!, splitN: true } };
}

beforeAll(async () => {
  gw = await startTestGateway((config) => ({
    ...config,
    server: { ...config.server, imageDir },
    models: {
      ...config.models,
      'dall-e-3-split': withSplit(config, 'dall-e-3'),
      'wanx2.1-t2i-turbo-split': withSplit(config, 'wanx2.1-t2i-turbo'),
    },
  }));
  client = new OpenAI({ apiKey: gw.key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await gw.close();
  rmSync(imageDir, { recursive: true, force: true });
});
beforeEach(() => {
  gw.sims.openai.reset();
  gw.sims.dashscope.reset();
});

/** JSON bodies the simulated vendor received on `path`. */
function received(sim: 'openai' | 'dashscope', path: string): any[] {
  return gw.sims[sim].received.filter((r) => r.method === 'POST' && r.url.startsWith(path)).map((r) => JSON.parse(r.body.toString()));
}
const OPENAI_IMAGES = '/v1/images/generations';
const DASHSCOPE_CREATE = '/api/v1/services/aigc/text2image/image-synthesis';

async function postRaw(body: unknown) {
  const response = await fetch(`${gw.url}/v1/images/generations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as any };
}

describe('images through the gateway with the openai SDK', () => {
  it('generates with a shape A model (dall-e-3) and answers re-hosted URLs with revised_prompt', async () => {
    const result = await client.images.generate({ model: 'dall-e-3', prompt: 'a lighthouse', size: '1024x1792', quality: 'hd', style: 'natural' });
    expect(result.data).toHaveLength(1);
    expect(result.data![0].url).toMatch(new RegExp(`^${gw.url}/files/images/[A-Za-z0-9_-]{32}\\.png$`));
    expect(result.data![0].revised_prompt).toBe('Revised: a lighthouse');
    expect(received('openai', OPENAI_IMAGES)).toEqual([
      { model: 'dall-e-3', prompt: 'a lighthouse', size: '1024x1792', quality: 'hd', style: 'natural' },
    ]);
  });

  it('generates with an envelope model from the same shape A call; the vendor receives exactly 1024*1024', async () => {
    const result = await client.images.generate({ model: 'wanx2.1-t2i-turbo', prompt: 'a flower shop', size: '1024x1024', n: 2 });
    expect(result.created).toBeTypeOf('number');
    expect(result.data).toHaveLength(2);
    for (const image of result.data!) {
      expect(image.url).toContain('/files/');
      expect(image.revised_prompt).toBe('a flower shop, highly detailed');
    }
    const [create] = received('dashscope', DASHSCOPE_CREATE);
    expect(create).toEqual({ model: 'wanx2.1-t2i-turbo', input: { prompt: 'a flower shop' }, parameters: { size: '1024*1024', n: 2 } });
    const createRequest = gw.sims.dashscope.received.find((r) => r.url === DASHSCOPE_CREATE)!;
    expect(createRequest.headers['x-dashscope-async']).toBe('enable');
    expect(gw.sims.dashscope.received.filter((r) => r.method === 'GET' && r.url.startsWith('/api/v1/tasks/')).length).toBe(3);
  });

  it('accepts shape B posted raw for an envelope model', async () => {
    const { status, json } = await postRaw({
      model: 'wan2.2-t2i-flash',
      input: { prompt: 'a red bicycle' },
      parameters: { size: '1280*720', n: 1, negative_prompt: 'blurry', seed: 7 },
    });
    expect(status).toBe(200);
    expect(json.data).toEqual([{ url: expect.stringContaining('/files/'), revised_prompt: 'a red bicycle, highly detailed' }]);
    expect(received('dashscope', DASHSCOPE_CREATE)).toEqual([
      { model: 'wan2.2-t2i-flash', input: { prompt: 'a red bicycle', negative_prompt: 'blurry' }, parameters: { size: '1280*720', n: 1, seed: 7 } },
    ]);
  });

  it('answers n=3 on a max_n 1 model with 400 naming the limit, calling no vendor', async () => {
    const error = await client.images.generate({ model: 'dall-e-3', prompt: 'x', n: 3 }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.status).toBe(400);
    expect(error.param).toBe('n');
    expect(error.message).toContain('at most n=1');
    expect(received('openai', OPENAI_IMAGES)).toEqual([]);
  });

  it('splits n=3 into 3 vendor calls of n=1 and answers 3 images where splitting is on', async () => {
    const result = await client.images.generate({ model: 'dall-e-3-split', prompt: 'three cats', n: 3, response_format: 'b64_json' });
    expect(result.data).toHaveLength(3);
    for (const image of result.data!) expect(Buffer.from(image.b64_json!, 'base64')).toEqual(TINY_PNG);
    const calls = received('openai', OPENAI_IMAGES);
    expect(calls).toHaveLength(3);
    for (const call of calls) expect(call).toEqual({ model: 'dall-e-3', prompt: 'three cats', n: 1, response_format: 'b64_json' });
  });

  it('merges split parts in order: the part of max_n images first, the rest after', async () => {
    const result = await client.images.generate({ model: 'wanx2.1-t2i-turbo-split', prompt: 'six birds', n: 6 });
    const urls = result.data!.map((image) => new URL(image.url!).pathname);
    const tasks = urls.map((path) => path.slice('/files/'.length, path.lastIndexOf('-')));
    const indexes = urls.map((path) => path.slice(path.lastIndexOf('-') + 1));
    expect(indexes).toEqual(['0.png', '1.png', '2.png', '3.png', '0.png', '1.png']);
    expect(new Set(tasks.slice(0, 4)).size).toBe(1);
    expect(tasks[4]).toBe(tasks[5]);
    expect(tasks[4]).not.toBe(tasks[0]);
    expect(received('dashscope', DASHSCOPE_CREATE).map((body) => body.parameters.n).sort()).toEqual([2, 4]);
  });

  it('serves re-hosted URLs with the same bytes the vendor served', async () => {
    const result = await client.images.generate({ model: 'dall-e-2', prompt: 'a boat', n: 2, size: '256x256' });
    const vendorUrl = `${gw.sims.openai.url.slice(0, -'/v1'.length)}/files/img-`;
    for (const image of result.data!) {
      expect(image.url!.startsWith(`${gw.url}/files/images/`)).toBe(true);
      expect(image.url!.startsWith(vendorUrl)).toBe(false);
      const served = await fetch(image.url!);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await served.arrayBuffer())).toEqual(TINY_PNG);
    }
    expect(gw.sims.openai.received.filter((r) => r.method === 'GET' && r.url.startsWith('/files/img-'))).toHaveLength(2);
  });

  it('answers content_policy_violation in the OpenAI shape for a policy error from OpenAI', async () => {
    const error = await client.images.generate({ model: 'dall-e-3', prompt: 'something forbidden' }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.code).toBe('content_policy_violation');
    expect(error.error).toMatchObject({ type: 'invalid_request_error', code: 'content_policy_violation' });
    expect(received('openai', OPENAI_IMAGES)).toHaveLength(1);
  });

  it('answers content_policy_violation for DashScope’s DataInspectionFailed at creation and for a FAILED task', async () => {
    const atCreate = await client.images.generate({ model: 'wanx2.1-t2i-plus', prompt: 'something forbidden' }).catch((e) => e);
    expect(atCreate).toBeInstanceOf(OpenAI.BadRequestError);
    expect(atCreate.code).toBe('content_policy_violation');
    const atTask = await client.images.generate({ model: 'wanx2.1-t2i-plus', prompt: 'unsafe-output please' }).catch((e) => e);
    expect(atTask).toBeInstanceOf(OpenAI.BadRequestError);
    expect(atTask.code).toBe('content_policy_violation');
    expect(atTask.message).toContain('Output data may contain inappropriate content');
    expect(received('dashscope', DASHSCOPE_CREATE).map((body) => body.input.prompt)).toEqual(['something forbidden', 'unsafe-output please']);
  });
});

describe('every validation error names its field', () => {
  it.each([
    ['prompt and input together', { model: 'dall-e-3', prompt: 'x', input: { prompt: 'x' } }, 'input'],
    ['shape A without prompt', { model: 'dall-e-3' }, 'prompt'],
    ['shape B without input.prompt', { model: 'wanx2.1-t2i-turbo', input: {} }, 'input.prompt'],
    ['shape B sent to a shape A model', { model: 'dall-e-3', input: { prompt: 'x' } }, 'input'],
    ['1024*1024 in shape A', { model: 'wanx2.1-t2i-turbo', prompt: 'x', size: '1024*1024' }, 'size'],
    ['1024x1024 in shape B', { model: 'wanx2.1-t2i-turbo', input: { prompt: 'x' }, parameters: { size: '1024x1024' } }, 'parameters.size'],
    ['a size the model does not list', { model: 'dall-e-3', prompt: 'x', size: '256x256' }, 'size'],
    ['a quality the model does not list', { model: 'gpt-image-1', prompt: 'x', quality: 'hd' }, 'quality'],
    ['style on a model without styles', { model: 'dall-e-2', prompt: 'x', style: 'vivid' }, 'style'],
    ['a style outside the spec list', { model: 'dall-e-3', prompt: 'x', style: 'sketch' }, 'style'],
    ['n below 1', { model: 'dall-e-2', prompt: 'x', n: 0 }, 'n'],
    ['n not an integer', { model: 'dall-e-2', prompt: 'x', n: '2' }, 'n'],
    ['n above max_n in shape B', { model: 'wanx2.1-t2i-turbo', input: { prompt: 'x' }, parameters: { n: 5 } }, 'parameters.n'],
    ['an unknown response_format', { model: 'dall-e-2', prompt: 'x', response_format: 'png' }, 'response_format'],
    ['parameters that are not an object', { model: 'wanx2.1-t2i-turbo', input: { prompt: 'x' }, parameters: 'big' }, 'parameters'],
  ])('%s', async (_name, body, param) => {
    const { status, json } = await postRaw(body);
    expect(status).toBe(400);
    expect(json.error.param).toBe(param);
    expect(json.error.message).toContain(param.split('.').pop());
    expect(gw.sims.openai.received).toEqual([]);
    expect(gw.sims.dashscope.received).toEqual([]);
  });

  it('names 1024x1024 sent where 1024*1024 is required as exactly that', async () => {
    const { json } = await postRaw({ model: 'wanx2.1-t2i-turbo', input: { prompt: 'x' }, parameters: { size: '1024x1024' } });
    expect(json.error.message).toBe("`parameters.size` '1024x1024' uses 'x', which is shape A's format; shape B takes WIDTH*HEIGHT: '1024*1024'.");
    const reverse = await postRaw({ model: 'dall-e-3', prompt: 'x', size: '1024*1024' });
    expect(reverse.json.error.message).toBe("`size` '1024*1024' uses '*', which is shape B's format; shape A takes WIDTHxHEIGHT: '1024x1024'.");
  });
});
