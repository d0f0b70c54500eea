import { createHash } from 'node:crypto';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { SIMULATOR_KEYS } from '../../src/protocols/simulators.ts';
import { readVendorForm } from '../helpers/read-vendor-form.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

const OTHER_KEY = 'sk-other-video-team';
const CHAT_ONLY_KEY = 'sk-chat-only-team';
const ALIAS = 'house-video';
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const keyEntry = (name: string, secret: string, models: string[]) =>
  ({ name, secret: { sha256: sha(Buffer.from(secret)) }, models, limits: {}, strict: false });

let gw: TestGateway;
let openai: OpenAI;
const clientFor = (apiKey: string) => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey, maxRetries: 0 });

beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => ({
    ...config,
    // An alias whose vendor name differs, so the test sees the model renamed inside the form.
    models: { ...config.models, [ALIAS]: { ...config.models['sora-2'], id: ALIAS, targets: [{ vendor: 'openai', upstream: 'sora-2', weight: 1 }] } },
    keys: [...config.keys, keyEntry('other', OTHER_KEY, ['*']), keyEntry('chat-only', CHAT_ONLY_KEY, ['gpt-4o'])],
  }));
  openai = clientFor(gw.key);
});
afterAll(() => gw.close());
beforeEach(() => gw.sims.openai.reset());

/** The form the simulated vendor received last, parsed independently of the gateway's code. */
async function readLastForm() {
  const request = gw.sims.openai.received.at(-1)!;
  return { request, ...(await readVendorForm(request)) };
}

describe('the official OpenAI SDK uses /v1/videos unchanged', () => {
  it('creates a video (multipart), renaming the model for the vendor, then retrieves it and downloads its bytes', async () => {
    const created = await openai.videos.create({ model: ALIAS as any, prompt: 'a cat on a boat', seconds: '8', size: '1280x720' });
    expect(created.id).toMatch(/^task_/);
    expect(created.model).toBe(ALIAS);
    expect(created.prompt).toBe('a cat on a boat');
    const { request, fields, files } = await readLastForm();
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/v1/videos');
    expect(String(request.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.headers.authorization).toBe(`Bearer ${SIMULATOR_KEYS.openai}`);
    expect(fields).toEqual([['model', 'sora-2'], ['prompt', 'a cat on a boat'], ['seconds', '8'], ['size', '1280x720']]);
    expect(files).toEqual([]);
    expect(gw.sims.openai.multipart.at(-1)!.fields).toMatchObject({ model: 'sora-2', seconds: '8' });

    const retrieved = await openai.videos.retrieve(created.id);
    expect(retrieved.id).toBe(created.id);
    expect(retrieved.status).toBe('completed');
    expect(gw.sims.openai.received.at(-1)!.url).toMatch(/^\/v1\/videos\/video_\w+$/);

    const content = await openai.videos.downloadContent(created.id, { variant: 'video' });
    expect(content.headers.get('content-type')).toBe('video/mp4');
    const bytes = new Uint8Array(await content.arrayBuffer());
    const atVendor = gw.sims.openai.received.at(-1)!;
    expect(atVendor.url).toMatch(/^\/v1\/videos\/video_\w+\/content\?variant=video$/);
    const direct = await fetch(new URL(atVendor.url, gw.sims.openai.url), { headers: { authorization: `Bearer ${SIMULATOR_KEYS.openai}` } });
    expect(bytes.length).toBeGreaterThan(0);
    expect(sha(bytes)).toBe(sha(new Uint8Array(await direct.arrayBuffer())));
  });

  it('keeps an input_reference file byte for byte', async () => {
    const image = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 13, 10, 45, 45, 1, 2, 3]);
    const created = await openai.videos.create({
      model: 'sora-2',
      prompt: 'animate this',
      input_reference: await toFile(image, 'first frame.png', { type: 'image/png' }),
    });
    expect(created.model).toBe('sora-2');
    const { fields, files } = await readLastForm();
    expect(fields).toEqual([['model', 'sora-2'], ['prompt', 'animate this']]);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ field: 'input_reference', filename: 'first frame.png', mimeType: 'image/png' });
    expect(files[0].data.equals(image)).toBe(true);
  });

  it('still takes a JSON body', async () => {
    const response = await fetch(`${gw.url}/v1/videos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: ALIAS, prompt: 'json please' }),
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(gw.sims.openai.received.at(-1)!.body.toString())).toEqual({ model: 'sora-2', prompt: 'json please' });
  });

  it('answers a task whose echo of a long prompt is larger than an error body may be (100 KB), with its signed id', async () => {
    const prompt = 'a very long scene description '.repeat(3_500);
    const created = await openai.videos.create({ model: ALIAS as any, prompt });
    expect(created.id).toMatch(/^task_/);
    expect(created.prompt).toBe(prompt);
    expect(JSON.stringify(created).length).toBeGreaterThan(100_000);
    const { fields } = await readLastForm();
    expect(fields).toContainEqual(['prompt', prompt]);
    expect((await openai.videos.retrieve(created.id)).prompt).toBe(prompt);
  });

  it('refuses another key (404), a model the key may not use, a form without model and an unknown model', async () => {
    const created = await openai.videos.create({ model: 'sora-2', prompt: 'mine' });
    const calls = gw.sims.openai.received.length;
    await expect(clientFor(OTHER_KEY).videos.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
    await expect(clientFor(OTHER_KEY).videos.downloadContent(created.id)).rejects.toMatchObject({ status: 404 });
    await expect(clientFor(CHAT_ONLY_KEY).videos.create({ model: 'sora-2', prompt: 'x' })).rejects.toMatchObject({ status: 403 });
    await expect(openai.videos.create({ model: 'no-such-video-model' as any, prompt: 'x' })).rejects.toMatchObject({ status: 404 });
    const form = new FormData();
    form.set('prompt', 'no model');
    const missing = await fetch(`${gw.url}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${gw.key}` }, body: form });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as any).error).toMatchObject({ code: 'missing_model', param: 'model', type: 'invalid_request_error' });
    expect(gw.sims.openai.received.length).toBe(calls);
  });

  it('answers an upload over the body limit 413 without calling the vendor', async () => {
    const limit = gw.config.server.bodyLimitBytes;
    const form = new FormData();
    form.set('model', 'sora-2');
    form.set('prompt', 'big');
    form.set('input_reference', new Blob([new Uint8Array(limit + 1)], { type: 'image/png' }), 'big.png');
    const response = await fetch(`${gw.url}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${gw.key}` }, body: form });
    expect(response.status).toBe(413);
    expect(((await response.json()) as any).error.code).toBe('request_too_large');
    expect(gw.sims.openai.received).toEqual([]);
  });

  it('remixes and deletes through the signed id only the owning key may use; list is not routed (404 naming the path)', async () => {
    const created = await openai.videos.create({ model: ALIAS as any, prompt: 'mine' });
    await expect(clientFor(OTHER_KEY).videos.remix(created.id, { prompt: 'theirs' })).rejects.toMatchObject({ status: 404 });
    await expect(clientFor(OTHER_KEY).videos.delete(created.id)).rejects.toMatchObject({ status: 404 });
    const remixed = await openai.videos.remix(created.id, { prompt: 'again' });
    expect(remixed.id).toMatch(/^task_/);
    expect(remixed.id).not.toBe(created.id);
    expect(remixed.model).toBe(ALIAS);
    expect(remixed.remixed_from_video_id).toBe(created.id);
    const remixAtVendor = gw.sims.openai.received.at(-1)!;
    expect(remixAtVendor.url).toMatch(/^\/v1\/videos\/video_\w+\/remix$/);
    expect(JSON.parse(remixAtVendor.body.toString())).toEqual({ prompt: 'again' });
    expect(remixAtVendor.headers.authorization).toBe(`Bearer ${SIMULATOR_KEYS.openai}`);
    expect((await openai.videos.retrieve(remixed.id)).prompt).toBe('again');

    const deleted = await openai.videos.delete(created.id);
    expect(deleted).toEqual({ id: created.id, object: 'video.deleted', deleted: true });
    expect(gw.sims.openai.received.at(-1)!.method).toBe('DELETE');
    await expect(openai.videos.retrieve(created.id)).rejects.toMatchObject({ status: 404 });

    const calls = gw.sims.openai.received.length;
    const error: any = await openai.videos.list().catch((failure) => failure);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error.status).toBe(404);
    expect(error.error.message).toContain('/v1/videos');
    expect(gw.sims.openai.received.length).toBe(calls);
  });
});
