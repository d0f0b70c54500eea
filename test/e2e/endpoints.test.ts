import { createHash } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { CompiledConfig } from '../../src/config/types.ts';
import { SIMULATOR_KEYS } from '../../src/protocols/simulators.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;
let openai: OpenAI;
const OTHER_KEY = 'sk-other-team';

beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => ({
    ...config,
    keys: [
      ...config.keys,
      { name: 'other', secret: { sha256: createHash('sha256').update(OTHER_KEY).digest('hex') }, models: ['*'], limits: {}, strict: false },
    ],
  }));
  openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
});
afterAll(() => gw.close());
beforeEach(() => {
  for (const sim of [gw.sims.openai, gw.sims.anthropic, gw.sims.gemini]) sim.reset();
});

const lastRequest = () => gw.sims.openai.received.at(-1)!;
const lastBody = () => JSON.parse(lastRequest().body.toString());
const sha = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Sends a request the vendor received once more, straight to the vendor, and answers its body bytes. */
async function replayAtVendor(request: { method: string; url: string; headers: Record<string, unknown>; body: Buffer }): Promise<Buffer> {
  const headers: Record<string, string> = { authorization: String(request.headers.authorization) };
  if (request.headers['content-type']) headers['content-type'] = String(request.headers['content-type']);
  const response = await fetch(new URL(request.url, gw.sims.openai.url), {
    method: request.method,
    headers,
    body: request.method === 'GET' ? undefined : new Uint8Array(request.body),
  });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

async function post(path: string, body: unknown, key = gw.key) {
  const response = await fetch(gw.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as any };
}

describe('chat-completions-style endpoints pass through to an OpenAI-protocol vendor', () => {
  it('responses, stream and not', async () => {
    const response = await openai.responses.create({ model: 'gpt-4o', input: 'tell me' });
    expect(response.output_text).toContain('tell me');
    expect(lastRequest().url).toBe('/v1/responses');
    const stream = await openai.responses.create({ model: 'gpt-4o', input: 'stream it', stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(lastBody().stream).toBe(true);
  });

  it('responses/compact', async () => {
    const r = await post('/v1/responses/compact', { model: 'gpt-4o', input: [{ role: 'user', content: 'compact me' }] });
    expect(r.status).toBe(200);
    expect(lastRequest().url).toBe('/v1/responses/compact');
  });

  it('legacy completions', async () => {
    const completion = await openai.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'say this' });
    expect(completion.choices[0].text).toContain('say this');
    expect(lastRequest().url).toBe('/v1/completions');
  });

  it('embeddings, decoded by the SDK from the base64 it asks for', async () => {
    const result = await openai.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] });
    expect(result.data).toHaveLength(2);
    expect(result.data[0].embedding.every((v) => typeof v === 'number')).toBe(true);
    expect(lastBody().encoding_format).toBe('base64');
  });

  it('rerank and moderations', async () => {
    const rerank = await post('/v1/rerank', { model: 'jina-reranker-v2-base-multilingual', query: 'q', documents: ['x', 'y'] });
    expect(rerank.status).toBe(200);
    expect(rerank.json.results.length).toBe(2);
    expect(lastRequest().url).toBe('/v1/rerank');
    const moderation = await openai.moderations.create({ model: 'omni-moderation-latest', input: 'fine text' });
    expect(moderation.results).toHaveLength(1);
    expect(lastRequest().url).toBe('/v1/moderations');
  });

  it('audio speech streams the vendor bytes back unchanged', async () => {
    const speech = await openai.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'hello' });
    const bytes = Buffer.from(await speech.arrayBuffer());
    expect(speech.headers.get('content-type')).toBe('audio/mpeg');
    expect(lastRequest().url).toBe('/v1/audio/speech');
    const atVendor = await replayAtVendor(lastRequest());
    expect(atVendor.length).toBeGreaterThan(100);
    expect(sha(bytes)).toBe(sha(atVendor));
  });

  it.each([
    ['transcriptions', (file: File) => openai.audio.transcriptions.create({ model: 'whisper-1', file })],
    ['translations', (file: File) => openai.audio.translations.create({ model: 'whisper-1', file })],
  ])('audio %s: the vendor receives the multipart upload byte for byte', async (name, send) => {
    const audio = Buffer.alloc(300_000, 7);
    const result = await send(await toFile(audio, 'speech.wav', { type: 'audio/wav' }));
    expect(typeof result.text).toBe('string');
    expect(lastRequest().url).toBe(`/v1/audio/${name}`);
    const upload = lastRequest().body;
    expect(upload.includes(audio)).toBe(true);
    const record = gw.sims.openai.multipart.at(-1)!;
    expect(record.fields.model).toBe('whisper-1');
  });

  it('image edits: a multipart upload with the model after the file reaches the vendor byte for byte', async () => {
    const boundary = 'gateway-test-boundary';
    const part = (headers: string, body: Buffer | string) => Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), Buffer.from(body), Buffer.from('\r\n')]);
    const upload = Buffer.concat([
      part('Content-Disposition: form-data; name="image"; filename="in.png"\r\nContent-Type: image/png', Buffer.alloc(2_000_000, 1)),
      part('Content-Disposition: form-data; name="prompt"', 'add a hat'),
      part('Content-Disposition: form-data; name="model"', 'dall-e-2'),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const response = await fetch(`${gw.url}/v1/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: upload,
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as any).data.length).toBeGreaterThan(0);
    expect(lastRequest().url).toBe('/v1/images/edits');
    expect(sha(lastRequest().body)).toBe(sha(upload));
    expect(lastRequest().headers['content-type']).toBe(`multipart/form-data; boundary=${boundary}`);
  });

  it('videos: create, look up and download through signed task ids only the owning key can read', async () => {
    const created = await post('/v1/videos', { model: 'sora-2', prompt: 'a cat' });
    expect(created.status).toBe(200);
    const id: string = created.json.id;
    expect(id).toMatch(/^task_/);
    expect(created.json.model).toBe('sora-2');
    expect(lastBody().model).toBe('sora-2');
    const lookup = await fetch(`${gw.url}/v1/videos/${id}`, { headers: { authorization: `Bearer ${gw.key}` } });
    expect(lookup.status).toBe(200);
    expect(((await lookup.json()) as any).id).toBe(id);
    expect(lastRequest().url).toMatch(/^\/v1\/videos\/video_/);
    const content = await fetch(`${gw.url}/v1/videos/${id}/content`, { headers: { authorization: `Bearer ${gw.key}` } });
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('video/mp4');
    const video = Buffer.from(await content.arrayBuffer());
    const videoAtVendor = await replayAtVendor(lastRequest());
    expect(videoAtVendor.length).toBeGreaterThan(0);
    expect(sha(video)).toBe(sha(videoAtVendor));
    // A small body whose end arrives with its first chunk still ends the gateway's response.
    for (let i = 0; i < 50 && gw.gateway.inFlight() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(gw.gateway.inFlight()).toBe(0);
    const foreign = await fetch(`${gw.url}/v1/videos/${id}`, { headers: { authorization: `Bearer ${OTHER_KEY}` } });
    expect(foreign.status).toBe(404);
    const forged = await fetch(`${gw.url}/v1/videos/${id.slice(0, -2)}xx`, { headers: { authorization: `Bearer ${gw.key}` } });
    expect(forged.status).toBe(404);
  });

  it('model lookup answers from the config', async () => {
    const model = await openai.models.retrieve('gpt-4o');
    expect(model.id).toBe('gpt-4o');
    expect(gw.sims.openai.received).toEqual([]);
  });

  it('answers 501 in the caller shape for an operation the vendor protocol does not offer', async () => {
    const r = await post('/v1/embeddings', { model: 'sim-anthropic-chat', input: 'x' });
    expect(r.status).toBe(501);
    expect(r.json.error.code).toBe('not_implemented');
  });
});

describe('realtime WebSocket', () => {
  function connect(headers: Record<string, string>, protocols?: string[]) {
    return new WebSocket(`${gw.url.replace('http', 'ws')}/v1/realtime?model=gpt-realtime`, protocols, { headers });
  }

  it('authenticates the upgrade and relays events both ways', async () => {
    const socket = connect({ authorization: `Bearer ${gw.key}` });
    const messages: any[] = [];
    await new Promise<void>((resolve, reject) => {
      socket.on('message', (data) => {
        messages.push(JSON.parse(data.toString()));
        if (messages.length === 1) socket.send(JSON.stringify({ type: 'session.update', session: {} }));
        if (messages.length === 2) resolve();
      });
      socket.on('error', reject);
    });
    socket.close();
    expect(messages[0].type).toBe('session.created');
    expect(messages[1].type).toBe('echo');
    const upgrade = gw.sims.openai.received.at(-1)!;
    expect(upgrade.url).toBe('/v1/realtime?model=gpt-realtime');
    expect(upgrade.headers.authorization).toBe(`Bearer ${SIMULATOR_KEYS.openai}`);
  });

  it('accepts the browser SDK key subprotocol and never forwards it', async () => {
    const socket = connect({}, ['realtime', `openai-insecure-api-key.${gw.key}`]);
    await new Promise((resolve, reject) => {
      socket.once('message', resolve);
      socket.once('error', reject);
    });
    socket.close();
    expect(String(gw.sims.openai.received.at(-1)!.headers['sec-websocket-protocol'] ?? '')).not.toContain(gw.key);
  });

  it('refuses a bad key with 401 before reaching the vendor', async () => {
    const socket = connect({ authorization: 'Bearer sk-wrong' });
    const status = await new Promise<number>((resolve) => socket.once('unexpected-response', (_req, res) => resolve(res.statusCode!)));
    expect(status).toBe(401);
    expect(gw.sims.openai.received).toEqual([]);
  });
});

describe('messages and generate-content side endpoints', () => {
  it('counts tokens in both styles', async () => {
    const anthropic = new Anthropic({ baseURL: gw.url, apiKey: gw.key });
    const count = await anthropic.messages.countTokens({ model: 'sim-anthropic-chat', messages: [{ role: 'user', content: 'one two three' }] });
    expect(count.input_tokens).toBeGreaterThan(0);
    expect(gw.sims.anthropic.received.at(-1)!.url).toBe('/v1/messages/count_tokens');
    const google = new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });
    const tokens = await google.models.countTokens({ model: 'sim-gemini-chat', contents: 'one two three' });
    expect(tokens.totalTokens).toBeGreaterThan(0);
    expect(gw.sims.gemini.received.at(-1)!.url).toBe('/v1beta/models/gemini-2.5-flash:countTokens');
  });
});
