import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defineChatBody, writeBodies, type BenchBodies } from '../../bench/bodies.ts';
import { CHAT_MODEL, CLIENT_KEY_ENV, IMAGES_MODEL, TRANSLATED_MODEL, VENDOR_KEY_ENV, writeBenchConfig } from '../../bench/config.ts';
import { HarnessError } from '../../bench/run-scenario.ts';
import { checkChatStreams, checkImageGeneration, sendCheckRequest, summarizeChatStream, type CheckContext } from '../../bench/scenarios/checks.ts';
import type { Side } from '../../bench/scenarios/types.ts';
import { compileConfigFile } from '../../src/config/index.ts';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.ts';
import { startAnthropicSimulator, startDashScopeSimulator, startOpenAISimulator, type Simulator } from '../../src/simulators/index.ts';

const VENDOR_KEY = 'sk-bench-checks-vendor';
const CLIENT_KEY = 'sk-bench-checks-client';

/** The bench config of 10 models, served by a gateway in this process from three simulators. */
describe('bench checks through a gateway on the bench config', () => {
  let dir: string;
  let openai: Simulator;
  let anthropic: Simulator;
  let dashscope: Simulator;
  let gateway: Gateway;
  let side: Side;
  let bodies: BenchBodies;
  const context = (quick: boolean): CheckContext => ({ quick, clientKey: CLIENT_KEY, notes: [] });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bench-checks-test-'));
    [openai, anthropic, dashscope] = await Promise.all([
      startOpenAISimulator({ key: VENDOR_KEY }),
      startAnthropicSimulator({ key: VENDOR_KEY }),
      startDashScopeSimulator({ key: VENDOR_KEY }),
    ]);
    const urls = { vendor: openai.url, slowVendor: openai.url, anthropic: anthropic.url, dashscope: dashscope.url };
    const { config, problems } = await compileConfigFile((await writeBenchConfig(dir, 10, urls)).configFile);
    if (!config) throw new Error(problems.map((p) => p.message).join('\n'));
    gateway = createGateway({ config, env: { [VENDOR_KEY_ENV]: VENDOR_KEY, [CLIENT_KEY_ENV]: CLIENT_KEY } });
    side = { label: 'gateway', kind: 'gateway', pid: process.pid, origin: await gateway.listen(0, '127.0.0.1') };
    bodies = await writeBodies(dir, 1024);
  });
  beforeEach(() => {
    for (const sim of [openai, anthropic, dashscope]) sim.reset();
  });
  afterAll(async () => {
    await gateway?.close(0);
    await Promise.all([openai, anthropic, dashscope].map((sim) => sim?.close()));
    await rm(dir, { recursive: true, force: true });
  });

  it('sees the translated stream carry as many content chunks as the passthrough stream, from a messages call to the Anthropic vendor', async () => {
    const ctx = context(true);
    await checkChatStreams(ctx, 'translated-stream', { side, bodyFile: bodies.stream }, { side, bodyFile: bodies.translatedStream });
    expect(ctx.notes).toEqual([]);
    const passthrough = summarizeChatStream((await sendCheckRequest(ctx, side, '/v1/chat/completions', bodies.stream)).text);
    const translated = summarizeChatStream((await sendCheckRequest(ctx, side, '/v1/chat/completions', bodies.translatedStream)).text);
    expect(translated).toMatchObject({ done: true, contentChunks: passthrough.contentChunks });
    expect(translated.unexpected).toBeUndefined();
    expect(passthrough.contentChunks).toBeGreaterThan(5);

    expect(openai.received.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v1/chat/completions', 'POST /v1/chat/completions']);
    expect(JSON.parse(openai.received[0].body.toString())).toMatchObject({ model: CHAT_MODEL, stream: true });
    expect(anthropic.received.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v1/messages', 'POST /v1/messages']);
    const call = anthropic.received[0];
    expect(call.headers['x-api-key']).toBe(VENDOR_KEY);
    expect(call.headers['anthropic-version']).toBe('2023-06-01');
    const sent = JSON.parse(call.body.toString());
    expect(sent).toMatchObject({ model: TRANSLATED_MODEL, stream: true, max_tokens: 64, system: expect.stringContaining('helpful assistant') });
    expect(sent.messages).toEqual([{ role: 'user', content: expect.anything() }]);
  });

  it('breaks a quick run and notes a full run when the two streams carry different numbers of content chunks', async () => {
    const shorter = join(dir, 'shorter-stream.json');
    const body = JSON.parse(defineChatBody(TRANSLATED_MODEL, true));
    body.messages[1].content = 'Two words.';
    await writeFile(shorter, JSON.stringify(body));
    const probes = [{ side, bodyFile: bodies.stream }, { side, bodyFile: shorter }] as const;
    await expect(checkChatStreams(context(true), 'translated-stream', ...probes)).rejects.toThrow(HarnessError);
    const full = context(false);
    await checkChatStreams(full, 'translated-stream', ...probes);
    expect(full.notes).toHaveLength(1);
    expect(full.notes[0]).toMatch(/^translated-stream: the streams differ: gateway carried \d+ content chunks, gateway \d+$/);
    expect(anthropic.received).toHaveLength(2);
  });

  it('reports a stream the gateway refuses, with its status', async () => {
    const unknown = join(dir, 'unknown-model.json');
    await writeFile(unknown, defineChatBody('no-such-model', true));
    await expect(checkChatStreams(context(true), 'translated-stream', { side, bodyFile: bodies.stream }, { side, bodyFile: unknown })).rejects.toThrow(
      /translated-stream: gateway answered 404/,
    );
    expect(anthropic.received).toHaveLength(0);
  });

  it('sees one image URL come back from shape A, after the envelope vendor got the transformed task and three lookups', async () => {
    const urls = await checkImageGeneration(context(true), 'images-envelope', side, bodies.images);
    expect(urls).toHaveLength(1);
    const [create, ...lookups] = dashscope.received;
    expect(create.url).toBe('/api/v1/services/aigc/text2image/image-synthesis');
    expect(create.headers.authorization).toBe(`Bearer ${VENDOR_KEY}`);
    expect(create.headers['x-dashscope-async']).toBe('enable');
    expect(JSON.parse(create.body.toString())).toEqual({
      model: IMAGES_MODEL,
      input: { prompt: 'A lighthouse on a cliff at dusk, watercolor.' },
      parameters: { size: '1024*1024', n: 1 },
    });
    expect(lookups.map((r) => `${r.method} ${r.url.replace(/[0-9a-f-]{36}$/, 'ID')}`)).toEqual(Array(3).fill('GET /api/v1/tasks/ID'));
    expect(urls[0]).toContain(new URL(dashscope.url).origin);
  });

  it('breaks a quick run on an image request the gateway refuses', async () => {
    const tooMany = join(dir, 'images-n5.json');
    await writeFile(tooMany, JSON.stringify({ model: IMAGES_MODEL, prompt: 'five', size: '1024x1024', n: 5 }));
    await expect(checkImageGeneration(context(true), 'images-envelope', side, tooMany)).rejects.toThrow(/images-envelope: gateway answered 400 without one image URL/);
    expect(dashscope.received).toHaveLength(0);
  });
});

describe('summarizeChatStream', () => {
  it('counts content chunks and [DONE], and keeps the first event that is not a chat chunk', () => {
    const chunk = (content: string) => `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`;
    expect(summarizeChatStream(chunk('') + chunk('a') + chunk('b') + 'data: [DONE]\n\n')).toEqual({ chunks: 3, contentChunks: 2, done: true });
    const broken = summarizeChatStream(`${chunk('a')}data: {"error":{"message":"upstream reset"}}\n\n`);
    expect(broken).toEqual({ chunks: 1, contentChunks: 1, done: false, unexpected: '{"error":{"message":"upstream reset"}}' });
  });
});
