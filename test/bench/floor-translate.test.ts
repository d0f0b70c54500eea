import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { defineChatBody } from '../../bench/bodies.ts';
import type { FloorMap } from '../../bench/config.ts';
import { createFloorListener, createFloorTable } from '../../bench/floor-proxy.ts';
import { createChunkTranslator } from '../../bench/floor-translate.ts';
import { startAnthropicSimulator } from '../../src/protocols/anthropic/simulator/index.ts';
import type { Simulator } from '../../src/simulators/types.ts';

const VENDOR_KEY = 'sk-floor-translate-vendor';

/** The data lines of an SSE text, each parsed (`[DONE]` kept as the string). */
const readDataLines = (text: string): unknown[] =>
  text.split('\n\n').filter(Boolean).map((event) => {
    expect(event.startsWith('data: ')).toBe(true);
    const data = event.slice('data: '.length);
    return data === '[DONE]' ? data : JSON.parse(data);
  });

describe('the floor translating a streamed chat to a messages vendor', () => {
  let sim: Simulator;
  let server: Server;
  let origin: string;

  const start = async (key: string) => {
    const map: FloorMap = {
      vendors: { claude: { baseUrl: sim.url.replace(/\/v1\/?$/, ''), keyEnv: 'FLOOR_TRANSLATE_KEY', connections: 4, protocol: 'anthropic' } },
      models: { 'claude-test': 'claude' },
    };
    server = createServer(createFloorListener(createFloorTable(map, { FLOOR_TRANSLATE_KEY: key })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const post = (body: string) => request(`${origin}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  beforeAll(async () => {
    sim = await startAnthropicSimulator({ key: VENDOR_KEY });
    await start(VENDOR_KEY);
  });
  beforeEach(() => sim.reset());
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await sim.close();
  });

  it('sends the messages request with the vendor key and answers chat chunks: role, one per text delta, finish, [DONE]', async () => {
    const response = await post(defineChatBody('claude-test', true));
    const events = readDataLines(await response.body.text()) as any[];
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream');
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1);
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks.at(-1).choices[0]).toEqual({ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' });
    const text = chunks.slice(1, -1).map((c) => c.choices[0].delta.content).join('');
    expect(text.length).toBeGreaterThan(0);
    for (const chunk of chunks) expect(chunk).toMatchObject({ object: 'chat.completion.chunk', model: expect.any(String), id: expect.stringMatching(/^chatcmpl-/) });
    expect(sim.received).toHaveLength(1);
    const sent = sim.received[0];
    expect(sent.url).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe(VENDOR_KEY);
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(JSON.parse(sent.body.toString())).toEqual({
      model: 'claude-test',
      max_tokens: 64,
      system: 'You are a helpful assistant. Answer briefly.',
      messages: [{ role: 'user', content: 'Write one sentence about the sea at night, with the moon on the water.' }],
      temperature: 0.2,
      stream: true,
    });
  });

  it('answers 400 to a request that asks for no stream, without calling the vendor', async () => {
    const response = await post(defineChatBody('claude-test', false));
    expect(response.statusCode).toBe(400);
    expect(await response.body.text()).toBe('the floor translates streams only');
    expect(sim.received).toHaveLength(0);
  });

  it("passes a vendor's refusal through with its status and body", async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await start('sk-wrong-key');
    const response = await post(defineChatBody('claude-test', true));
    expect(response.statusCode).toBe(401);
    expect(((await response.body.json()) as any).type).toBe('error');
    expect(sim.received).toHaveLength(1);
  });
});

describe('the floor chunk translator', () => {
  const event = (data: unknown) => ({ event: undefined, id: undefined, data: JSON.stringify(data) });

  it.each([
    ['a ping', { type: 'ping' }, ''],
    ['a block start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, ''],
    ['a thinking delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hm' } }, ''],
    ['a message delta without a stop reason', { type: 'message_delta', delta: { stop_reason: null }, usage: { output_tokens: 1 } }, ''],
    ['the message stop', { type: 'message_stop' }, 'data: [DONE]\n\n'],
  ])('turns %s into %j', (_name, data, expected) => {
    expect(createChunkTranslator()(event(data))).toBe(expected);
  });

  it('carries the message id and model into every chunk and maps max_tokens to length', () => {
    const translate = createChunkTranslator();
    translate(event({ type: 'message_start', message: { id: 'msg_1', model: 'claude-x' } }));
    const text = JSON.parse(translate(event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'a "b"' } })).slice(6));
    const finish = JSON.parse(translate(event({ type: 'message_delta', delta: { stop_reason: 'max_tokens' } })).slice(6));
    expect(text).toMatchObject({ id: 'chatcmpl-msg_1', model: 'claude-x', choices: [{ delta: { content: 'a "b"' } }] });
    expect(finish.choices[0].finish_reason).toBe('length');
  });
});
