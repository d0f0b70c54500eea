import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { readVendorForm } from '../helpers/read-vendor-form.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;
let openai: OpenAI;

/** A copy of `model` served under another id: the vendor knows it by the original name only. */
const alias = (config: CompiledConfig, id: string, model: string) => ({ ...config.models[model], id, targets: [{ vendor: 'openai', upstream: model, weight: 1 }] });

beforeAll(async () => {
  gw = await startTestGateway((config) => ({
    ...config,
    models: { ...config.models, 'house-whisper': alias(config, 'house-whisper', 'whisper-1'), 'house-edit': alias(config, 'house-edit', 'dall-e-2') },
  }));
  openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
});
afterAll(() => gw.close());
beforeEach(() => gw.sims.openai.reset());

const lastForm = () => readVendorForm(gw.sims.openai.received.at(-1)!);

describe('multipart uploads reach the vendor with the model named as the vendor knows it', () => {
  it('audio.transcriptions.create: the form carries the upstream name, the file byte for byte', async () => {
    const audio = Buffer.from([0x52, 0x49, 0x46, 0x46, 0, 255, 13, 10, 45, 45, 7, 7, 7]);
    const result = await openai.audio.transcriptions.create({ model: 'house-whisper', file: await toFile(audio, 'speech.wav', { type: 'audio/wav' }), language: 'en' });
    expect(result.text).toContain('speech.wav');
    expect(gw.sims.openai.received.at(-1)!.url).toBe('/v1/audio/transcriptions');
    const { fields, files } = await lastForm();
    expect(fields).toEqual([['model', 'whisper-1'], ['language', 'en']]);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ field: 'file', filename: 'speech.wav', mimeType: 'audio/wav' });
    expect(files[0].data.equals(audio)).toBe(true);
  });

  it('audio.translations.create renames the model too', async () => {
    await openai.audio.translations.create({ model: 'house-whisper', file: await toFile(Buffer.alloc(64, 3), 'talk.mp3', { type: 'audio/mpeg' }) });
    expect((await lastForm()).fields).toEqual([['model', 'whisper-1']]);
  });

  it('images.edit: the form carries the upstream name, the image byte for byte', async () => {
    const image = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3]);
    const result = await openai.images.edit({ model: 'house-edit', image: await toFile(image, 'in.png', { type: 'image/png' }), prompt: 'add a hat' });
    expect(result.data?.length).toBeGreaterThan(0);
    expect(gw.sims.openai.received.at(-1)!.url).toBe('/v1/images/edits');
    const { fields, files } = await lastForm();
    expect(fields).toContainEqual(['model', 'dall-e-2']);
    expect(fields).toContainEqual(['prompt', 'add a hat']);
    expect(fields.some(([name, value]) => name === 'model' && value !== 'dall-e-2')).toBe(false);
    expect(files).toHaveLength(1);
    expect(files[0].data.equals(image)).toBe(true);
    expect(gw.sims.openai.multipart.at(-1)!.fields).toMatchObject({ model: 'dall-e-2' });
  });

  it('a model the vendor knows by the same name streams through unchanged (the client boundary kept)', async () => {
    await openai.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(Buffer.alloc(32, 1), 'a.wav', { type: 'audio/wav' }) });
    const request = gw.sims.openai.received.at(-1)!;
    expect(String(request.headers['content-type'])).not.toMatch(/boundary=----gateway/);
    expect((await lastForm()).fields).toEqual([['model', 'whisper-1']]);
  });
});
