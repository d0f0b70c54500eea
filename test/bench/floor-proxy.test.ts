import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { defineChatBody, defineUploadBody } from '../../bench/bodies.ts';
import type { FloorMap } from '../../bench/config.ts';
import { createFloorListener, createFloorTable } from '../../bench/floor-proxy.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../../src/protocols/openai/simulator/index.ts';

const VENDOR_KEY = 'sk-floor-test-vendor';

describe('the floor proxy', () => {
  let sim: OpenAISimulator;
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    sim = await startOpenAISimulator({ key: VENDOR_KEY });
    const map: FloorMap = {
      vendors: { main: { baseUrl: sim.url, keyEnv: 'FLOOR_TEST_KEY', connections: 4, protocol: 'openai' } },
      models: { 'gpt-4o-mini': 'main', 'whisper-1': 'main' },
    };
    server = createServer(createFloorListener(createFloorTable(map, { FLOOR_TEST_KEY: VENDOR_KEY })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => sim.reset());
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await sim.close();
  });

  it('forwards the original chat body bytes with the vendor key and pipes the completion back', async () => {
    const body = defineChatBody('gpt-4o-mini', false);
    const response = await request(`${origin}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const json = (await response.body.json()) as any;
    expect(response.statusCode).toBe(200);
    expect(json.object).toBe('chat.completion');
    expect(sim.received).toHaveLength(1);
    expect(sim.received[0].url).toBe('/v1/chat/completions');
    expect(sim.received[0].headers.authorization).toBe(`Bearer ${VENDOR_KEY}`);
    expect(sim.received[0].body.toString()).toBe(body);
  });

  it('pipes a stream back event by event', async () => {
    const response = await request(`${origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: defineChatBody('gpt-4o-mini', true),
    });
    const text = await response.body.text();
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(text.trim().endsWith('data: [DONE]')).toBe(true);
    expect(JSON.parse(sim.received[0].body.toString()).stream).toBe(true);
  });

  it('routes a multipart upload by its model field and streams every byte on', async () => {
    const upload = defineUploadBody('whisper-1', 300_000);
    const response = await request(`${origin}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=----bench-boundary-7MA4YWxkTrZu0gW' },
      body: upload,
    });
    const json = (await response.body.json()) as any;
    expect(response.statusCode).toBe(200);
    expect(json.text).toContain('speech.mp3 (300000 bytes)');
    expect(sim.received[0].body.equals(upload)).toBe(true);
    expect(sim.multipart[0].fields.model).toBe('whisper-1');
  });

  it('answers 404 for a model it does not know, without calling the vendor', async () => {
    const response = await request(`${origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: defineChatBody('no-such-model', false),
    });
    expect(response.statusCode).toBe(404);
    await response.body.dump();
    expect(sim.received).toHaveLength(0);
  });
});
