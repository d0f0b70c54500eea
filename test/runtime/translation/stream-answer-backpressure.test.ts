import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../../helpers/start-gateway.ts';
import { postChat, readRest } from '../../helpers/post-chat-paused.ts';
import { startHttpServer, type LocalServer } from '../../helpers/start-http-server.ts';
import { waitForStall } from '../../helpers/wait-for.ts';

/**
 * A translated stream (a messages-protocol vendor, a chat-completions client) under a slow client: the
 * vendor is slowed while the client does not read (backpressure through the gateway's own body reading),
 * and every text delta then arrives, in order, as chat chunks; the vendor saw what it was asked.
 */
let vendor: LocalServer;
let gw: TestGateway;
const PIECE = 'y'.repeat(16_000);
const DELTAS = 1_000;
const flood = { written: 0, done: false, request: undefined as Record<string, unknown> | undefined };
const sse = (type: string, data: Record<string, unknown>): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const START =
  sse('message_start', { message: { id: 'msg_flood', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 7, output_tokens: 1 } } }) +
  sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
const DELTA = sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text: PIECE } });
const END =
  sse('content_block_stop', { index: 0 }) +
  sse('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: DELTAS } }) +
  sse('message_stop', {});

/** Writes the flood of text deltas as fast as the gateway reads them, counting the bytes written. */
function writeFlood(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(START);
  let sent = 0;
  const next = (): void => {
    while (sent < DELTAS) {
      sent++;
      flood.written += DELTA.length;
      if (!res.write(DELTA)) return void res.once('drain', next);
    }
    flood.done = true;
    res.end(END);
  };
  next();
}

function answer(req: IncomingMessage, res: ServerResponse): void {
  let raw = '';
  req.on('data', (chunk) => (raw += chunk));
  req.on('end', () => {
    flood.request = { path: req.url, ...JSON.parse(raw) };
    writeFlood(res);
  });
}

beforeAll(async () => {
  vendor = await startHttpServer(answer);
  const { port } = vendor;
  gw = await startTestGateway((config) => ({ ...config, server: { ...config.server, defaultLimits: {} } }));
  const base = gw.gateway.getSnapshot().config;
  const model = base.models['sim-anthropic-chat'];
  const config: CompiledConfig = {
    ...base,
    vendors: { ...base.vendors, scripted: { ...base.vendors.anthropic, name: 'scripted', baseUrl: `http://127.0.0.1:${port}` } },
    models: { ...base.models, flood: { ...model, id: 'flood', targets: [{ vendor: 'scripted', upstream: 'claude-x', weight: 1 }] } },
  };
  gw.gateway.reload(config);
});
afterAll(async () => {
  await gw.close();
  await vendor.close();
});

describe('a translated stream under a slow client', () => {
  it('slows the vendor while the client does not read, then delivers every text delta in order', async () => {
    const event = gw.nextEvent();
    const res = await postChat(gw, { model: 'flood', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'x' }] });
    expect(res.statusCode).toBe(200);
    res.pause();
    // The vendor stops writing once the buffers between it and the paused client are full.
    await waitForStall(() => flood.written);
    expect(flood.done).toBe(false);
    expect(flood.written).toBeLessThan(DELTA.length * DELTAS);
    res.resume();
    const text = (await readRest(res)).toString();
    expect(flood.done).toBe(true);
    const frames = text.split('\n\n').filter(Boolean);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame.slice('data: '.length)));
    const content = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('');
    expect(content).toBe(PIECE.repeat(DELTAS));
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 7, completion_tokens: DELTAS } });
    expect(flood.request).toMatchObject({ path: '/v1/messages', model: 'claude-x', stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] });
    expect((await event).usage).toMatchObject({ inputTokens: 7, outputTokens: DELTAS });
  });
});
