import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';
import { postChat, readRest } from '../helpers/post-chat-paused.ts';
import { startHttpServer, type LocalServer } from '../helpers/start-http-server.ts';
import { waitForStall } from '../helpers/wait-for.ts';

/**
 * How a vendor answer's bytes flow through the gateway's own undici handler: a slow client slows the
 * vendor (backpressure), a JSON answer in pieces is one answer, a JSON answer above 8 MiB is piped, a JSON
 * body that goes silent is a retryable 504, and the vendor's time runs to the end of its body.
 */
let vendor: LocalServer;
let gw: TestGateway;
const EVENT = `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'x'.repeat(16_000) }, finish_reason: null }] })}\n\n`;
const EVENTS = 2_000;
const flood = { written: 0, done: false, closed: false };
const ANSWER = JSON.stringify({ id: 'c2', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'pieces '.repeat(400) }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 } });
const BIG = JSON.stringify({ id: 'c3', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'y'.repeat(9 * 1024 * 1024) }, finish_reason: 'stop' }] });

/** Writes the flood of SSE events as fast as the gateway reads them, counting the bytes written. */
function writeFlood(res: ServerResponse): void {
  res.on('close', () => (flood.closed = true));
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let sent = 0;
  const next = (): void => {
    while (sent < EVENTS) {
      sent++;
      flood.written += EVENT.length;
      if (!res.write(EVENT)) return void res.once('drain', next);
    }
    flood.done = true;
    res.end('data: [DONE]\n\n');
  };
  next();
}

/** Writes `body` in 40 pieces over about 300 ms. */
function writePieces(res: ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const size = Math.ceil(body.length / 40);
  let at = 0;
  const next = (): void => {
    if (at >= body.length) return void res.end();
    res.write(body.slice(at, (at += size)));
    setTimeout(next, 7);
  };
  next();
}

function answer(req: IncomingMessage, res: ServerResponse): void {
  let raw = '';
  req.on('data', (chunk) => (raw += chunk));
  req.on('end', () => {
    const model = JSON.parse(raw).model as string;
    if (model === 'flood') return writeFlood(res);
    if (model === 'pieces') return writePieces(res, ANSWER);
    if (model === 'big') return void res.writeHead(200, { 'content-type': 'application/json' }).end(BIG);
    // Headers, then a body that never comes.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
  });
}

/** POSTs a chat request (the test controls when the answer is read). */
function post(model: string, stream = false): Promise<IncomingMessage> {
  return postChat(gw, { model, stream, messages: [{ role: 'user', content: 'x' }] });
}

beforeAll(async () => {
  vendor = await startHttpServer(answer);
  const { port } = vendor;
  gw = await startTestGateway((config) => ({ ...config, server: { ...config.server, defaultLimits: {} } }));
  const base = gw.gateway.getSnapshot().config;
  const model = base.models['sim-openai-chat'];
  const target = (upstream: string) => [{ vendor: 'scripted', upstream, weight: 1 }];
  const config: CompiledConfig = {
    ...base,
    vendors: { ...base.vendors, scripted: { ...base.vendors.openai, name: 'scripted', baseUrl: `http://127.0.0.1:${port}/v1`, timeouts: { headersMs: 5_000, bodyMs: 400 } } },
    models: {
      ...base.models,
      flood: { ...model, id: 'flood', targets: target('flood') },
      pieces: { ...model, id: 'pieces', targets: target('pieces') },
      big: { ...model, id: 'big', targets: target('big') },
      silent: { ...model, id: 'silent', targets: target('silent') },
      'silent-then-sim': { ...model, id: 'silent-then-sim', targets: target('silent'), fallback: model.targets, routing: { ...model.routing, fallbackOn: ['timeout'] } },
    },
  };
  gw.gateway.reload(config);
});
afterAll(async () => {
  await gw.close();
  await vendor.close();
});

describe('a vendor answer through the gateway', () => {
  it('slows the vendor while the client does not read a stream, then delivers every byte in order', async () => {
    const res = await post('flood', true);
    expect(res.statusCode).toBe(200);
    res.pause();
    // The vendor stops writing once the buffers between it and the paused client are full.
    await waitForStall(() => flood.written);
    expect(flood.done).toBe(false);
    expect(flood.written).toBeLessThan(EVENT.length * EVENTS);
    res.resume();
    const body = await readRest(res);
    expect(flood.done).toBe(true);
    expect(body.toString()).toBe(EVENT.repeat(EVENTS) + 'data: [DONE]\n\n');
  });

  it('answers a JSON body the vendor sent in pieces as one answer with its length, the vendor time running to its end', async () => {
    const event = gw.nextEvent();
    const res = await post('pieces');
    const body = await readRest(res);
    expect(res.statusCode).toBe(200);
    expect(body.toString()).toBe(ANSWER);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(ANSWER)));
    const usage = await event;
    expect(usage.usage).toMatchObject({ inputTokens: 3, outputTokens: 5 });
    // About 280 ms of the request were the vendor's body arriving: not the gateway's overhead.
    expect(usage.durationMs).toBeGreaterThan(250);
    expect(usage.overheadMs).toBeLessThan(usage.durationMs - 200);
  });

  it('pipes a JSON answer above 8 MiB unchanged', async () => {
    const res = await post('big');
    const body = await readRest(res);
    expect(res.statusCode).toBe(200);
    expect(body.length).toBe(BIG.length);
    expect(body.toString() === BIG).toBe(true);
  });

  it('answers 504 upstream_timeout when a JSON body goes silent, and falls back from it when the model says so', async () => {
    const silent = await post('silent');
    expect(silent.statusCode).toBe(504);
    expect(JSON.parse((await readRest(silent)).toString())).toMatchObject({ error: { code: 'upstream_timeout' } });
    const event = gw.nextEvent();
    const fallback = await post('silent-then-sim');
    const body = JSON.parse((await readRest(fallback)).toString());
    expect(fallback.statusCode).toBe(200);
    expect(body.object).toBe('chat.completion');
    expect((await event).vendorCalls).toBe(2);
  });
});
