import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

/** `audio_second` prices the audio duration a transcription vendor reports (whisper-1's `usage: {type: "duration"}`). */
const PER_SECOND = 0.0001;
let gw: TestGateway;
let openai: OpenAI;
beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => ({
    ...config,
    models: { ...config.models, 'whisper-1': { ...config.models['whisper-1'], price: { input: 0, output: 0, audioSecond: PER_SECOND } } },
  }));
  openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
});
afterAll(() => gw.close());

/** 300,000 bytes: the simulator reports ceil(300000 / 16000) = 19 seconds. */
const upload = () => toFile(Buffer.alloc(300_000, 7), 'speech.wav', { type: 'audio/wav' });

describe('a transcription priced per audio second', () => {
  for (const format of ['json', 'verbose_json'] as const) {
    it(`charges the seconds the vendor reported (${format}) and carries them in the usage event`, async () => {
      const event = gw.nextEvent();
      const result = await openai.audio.transcriptions.create({ model: 'whisper-1', file: await upload(), response_format: format });
      // The client got the vendor's usage unchanged, and the vendor got the upload.
      expect((result as { usage?: unknown }).usage).toEqual({ type: 'duration', seconds: 19 });
      expect(gw.sims.openai.multipart.at(-1)!.files[0].size).toBe(300_000);
      const { usage, costUsd } = await event;
      expect(usage.audioSeconds).toBe(19);
      expect(costUsd).toBeCloseTo(19 * PER_SECOND, 12);
    });
  }

  it('charges no audio when the vendor reports no duration (a text answer), rather than guessing one', async () => {
    const event = gw.nextEvent();
    const text = await openai.audio.transcriptions.create({ model: 'whisper-1', file: await upload(), response_format: 'text' });
    expect(String(text)).toContain('Transcript of speech.wav');
    const { usage, costUsd } = await event;
    expect(usage.audioSeconds).toBeUndefined();
    expect(costUsd).toBe(0);
  });

  it('prices a transcription model that reports tokens by its tokens, not by seconds', async () => {
    const event = gw.nextEvent();
    const result = await openai.audio.transcriptions.create({ model: 'gpt-4o-transcribe', file: await upload() });
    expect(result.usage).toMatchObject({ type: 'tokens', input_tokens: 190 });
    const { usage } = await event;
    expect(usage.inputTokens).toBe(190);
    expect(usage.audioSeconds).toBeUndefined();
  });
});
