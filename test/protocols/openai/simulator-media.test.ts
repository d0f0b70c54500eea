import { FormData, request } from 'undici';
import WebSocket from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TINY_MP4, TINY_PNG } from '../../../src/simulators/media.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../../../src/protocols/openai/simulator/index.ts';
import { readFixture, shapeOf } from '../../simulators/helpers.ts';

const KEY = 'sk-sim-openai';
const AUTH = { authorization: `Bearer ${KEY}` };
let sim: OpenAISimulator;

async function post(path: string, body: unknown) {
  const res = await request(`${sim.url}${path}`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.statusCode, headers: res.headers, bytes: Buffer.from(await res.body.arrayBuffer()) };
}

async function postForm(path: string, form: FormData) {
  const res = await request(`${sim.url}${path}`, { method: 'POST', headers: AUTH, body: form });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

function audioForm(fields: Record<string, string>): FormData {
  const form = new FormData();
  form.append('file', new Blob([Buffer.alloc(32000)], { type: 'audio/mpeg' }), 'hello.mp3');
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}

beforeAll(async () => {
  sim = await startOpenAISimulator();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('OpenAI simulator: images, audio, video, realtime', () => {
  it('generates dall-e-3 images as URLs served by the simulator (real PNG bytes), shaped as images-response-url.json', async () => {
    const res = await post('/images/generations', readFixture('openai/images-request.json'));
    const body = JSON.parse(res.bytes.toString());
    expect(shapeOf(body)).toEqual(shapeOf(readFixture('openai/images-response-url.json')));
    expect(body.data[0].revised_prompt).toBe('Revised: A cute baby sea otter floating on its back, watercolor style');
    const image = await request(body.data[0].url);
    expect(image.headers['content-type']).toBe('image/png');
    expect(Buffer.from(await image.body.arrayBuffer())).toEqual(TINY_PNG);
    expect((await request(`${sim.url.replace('/v1', '')}/files/img-unknown.png`)).statusCode).toBe(404);
  });

  it('answers b64_json with the PNG bytes, and gpt-image models always b64_json with usage', async () => {
    const b64 = JSON.parse((await post('/images/generations', { model: 'dall-e-2', prompt: 'x', n: 2, response_format: 'b64_json' })).bytes.toString());
    expect(b64.data).toHaveLength(2);
    expect(Buffer.from(b64.data[0].b64_json, 'base64')).toEqual(TINY_PNG);
    const gpt = JSON.parse((await post('/images/generations', readFixture('openai/images-request-gpt-image.json'))).bytes.toString());
    expect(shapeOf(gpt)).toEqual(shapeOf(readFixture('openai/images-response-b64.json')));
  });

  it('refuses dall-e-3 n>1, a wrong DALL·E size and a "forbidden" prompt with the fixture errors', async () => {
    const n = await post('/images/generations', { model: 'dall-e-3', prompt: 'x', n: 2 });
    expect([n.status, JSON.parse(n.bytes.toString())]).toEqual([400, readFixture('openai/error-400-dalle3-n.json')]);
    const size = await post('/images/generations', { model: 'dall-e-3', prompt: 'x', size: '256x256' });
    expect(JSON.parse(size.bytes.toString())).toEqual(readFixture('openai/error-400-invalid-size.json'));
    const policy = await post('/images/generations', { model: 'dall-e-3', prompt: 'a forbidden scene' });
    expect([policy.status, JSON.parse(policy.bytes.toString())]).toEqual([400, readFixture('openai/error-400-content-policy.json')]);
    const blocked = await post('/images/generations', { model: 'gpt-image-1', prompt: 'a forbidden scene' });
    expect(JSON.parse(blocked.bytes.toString()).error.code).toBe('moderation_blocked');
  });

  it('parses image edits as multipart and records their fields and files', async () => {
    const form = new FormData();
    form.append('image', new Blob([TINY_PNG], { type: 'image/png' }), 'in.png');
    form.append('prompt', 'add a hat');
    form.append('model', 'gpt-image-1');
    const res = await postForm('/images/edits', form);
    expect(res.status).toBe(200);
    expect(Buffer.from(JSON.parse(res.text).data[0].b64_json, 'base64')).toEqual(TINY_PNG);
    expect(sim.multipart).toEqual([
      { path: '/v1/images/edits', fields: { prompt: 'add a hat', model: 'gpt-image-1' }, files: [{ field: 'image', filename: 'in.png', mimeType: 'image/png', size: TINY_PNG.length }] },
    ]);
    const noImage = new FormData();
    noImage.append('prompt', 'x');
    expect(JSON.parse((await postForm('/images/edits', noImage)).text).error.param).toBe('image');
  });

  it('speaks deterministic audio/mpeg bytes (one MPEG frame per input word)', async () => {
    const a = await post('/audio/speech', { model: 'tts-1', input: 'hello there', voice: 'alloy' });
    const b = await post('/audio/speech', { model: 'tts-1', input: 'hello there', voice: 'alloy' });
    expect(a.headers['content-type']).toBe('audio/mpeg');
    expect(a.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xfb]));
    expect(a.bytes.length).toBe(2 * 417);
    expect(a.bytes).toEqual(b.bytes);
    const wav = await post('/audio/speech', { model: 'tts-1', input: 'hi', voice: 'alloy', response_format: 'wav' });
    expect(wav.bytes.subarray(0, 4).toString()).toBe('RIFF');
    expect((await post('/audio/speech', { model: 'tts-1', input: 'hi' })).status).toBe(400);
  });

  it('transcribes and translates multipart audio as json or text', async () => {
    const json = JSON.parse((await postForm('/audio/transcriptions', audioForm({ model: 'whisper-1' }))).text);
    expect(json).toEqual({ text: 'Transcript of hello.mp3 (32000 bytes)', usage: { type: 'duration', seconds: 2 } });
    const text = await postForm('/audio/transcriptions', audioForm({ model: 'gpt-4o-mini-transcribe', response_format: 'text' }));
    expect(text.headers['content-type']).toMatch(/^text\/plain/);
    expect(text.text).toBe('Transcript of hello.mp3 (32000 bytes)\n');
    const translated = JSON.parse((await postForm('/audio/translations', audioForm({ model: 'whisper-1' }))).text);
    expect(translated).toEqual({ text: 'Translation of hello.mp3 (32000 bytes)' });
    expect(sim.multipart[0].fields).toEqual({ model: 'whisper-1' });
    const noModel = await postForm('/audio/transcriptions', audioForm({}));
    expect(JSON.parse(noModel.text).error.param).toBe('model');
  });

  it('creates a queued video that is completed on retrieval, with MP4 content', async () => {
    const created = JSON.parse((await post('/videos', { model: 'sora-2', prompt: 'a cat', seconds: '8' })).bytes.toString());
    expect(created).toMatchObject({ object: 'video', status: 'queued', model: 'sora-2', seconds: '8', progress: 0 });
    expect(created.id).toMatch(/^video_/);
    const got = await request(`${sim.url}/videos/${created.id}`, { headers: AUTH });
    expect(await got.body.json()).toMatchObject({ id: created.id, status: 'completed', progress: 100 });
    const content = await request(`${sim.url}/videos/${created.id}/content`, { headers: AUTH });
    expect(content.headers['content-type']).toBe('video/mp4');
    expect(Buffer.from(await content.body.arrayBuffer())).toEqual(TINY_MP4);
    const missing = await request(`${sim.url}/videos/video_nope`, { headers: AUTH });
    expect(missing.statusCode).toBe(404);
    await missing.body.dump();
  });

  it('opens a realtime WebSocket: session.created first, then echoes each JSON event', async () => {
    const ws = new WebSocket(`${sim.url.replace('http', 'ws')}/realtime?model=gpt-realtime`, { headers: AUTH });
    const messages: any[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.on('error', reject);
      ws.on('message', (data) => {
        messages.push(JSON.parse(data.toString()));
        if (messages.length === 1) ws.send(JSON.stringify({ type: 'session.update', session: { instructions: 'hi' } }));
        if (messages.length === 2) resolve();
      });
    });
    ws.close();
    expect(messages[0]).toMatchObject({ type: 'session.created', session: { model: 'gpt-realtime' } });
    expect(messages[1]).toMatchObject({ type: 'echo', event: { type: 'session.update', session: { instructions: 'hi' } } });
    expect(sim.received[0].url).toBe('/v1/realtime?model=gpt-realtime');
  });

  it('refuses a realtime upgrade with a wrong key (401 OpenAI error)', async () => {
    const ws = new WebSocket(`${sim.url.replace('http', 'ws')}/realtime?model=gpt-realtime`, { headers: { authorization: 'Bearer sk-bad' } });
    const [status, body] = await new Promise<[number, string]>((resolve) =>
      ws.on('unexpected-response', (_req, res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk));
        res.on('end', () => resolve([res.statusCode ?? 0, text]));
      }),
    );
    expect(status).toBe(401);
    expect(JSON.parse(body).error.code).toBe('invalid_api_key');
  });
});
