/**
 * A request that ends unfinished after its vendor reported part of its usage (an Anthropic-protocol
 * stream's `message_start`: the input count and 1 output token) keeps the reported input count and has its
 * output estimated from the bytes streamed to the client; a finished stream keeps the vendor's counts even
 * when its bytes would estimate more. The key has no limits: the estimate is made for the usage receiver alone.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { SIMULATOR_KEYS } from '../../src/protocols/simulators.ts';
import { STREAM_BYTES_PER_TOKEN } from '../../src/runtime/estimate-usage.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** The verified transcript: message_start reports 11 input tokens and 1 output token, message_delta 6. */
const TRANSCRIPT = readFileSync('test/fixtures/vendors/anthropic/messages-stream.sse', 'utf8');
/** Up to the first text delta ("Hello"): message_start, content_block_start, ping, content_block_delta. */
const PREFIX = TRANSCRIPT.split('\n\n').slice(0, 4).join('\n\n') + '\n\n';

/** What the vendor received per request, and whether the gateway closed it. */
interface Received {
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  closed: boolean;
}
const received: Received[] = [];
let vendor: Server;
let gw: TestGateway;

/** Streams the transcript whole (`finish`), up to its first delta then resets (`cut`) or goes silent (`hold`). */
function answer(req: IncomingMessage, res: ServerResponse): void {
  let text = '';
  req.on('data', (chunk) => (text += chunk));
  req.on('end', () => {
    const record: Received = { url: req.url!, headers: req.headers, body: JSON.parse(text), closed: false };
    received.push(record);
    res.on('close', () => (record.closed = true));
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (record.body.model === 'finish') return void res.end(TRANSCRIPT);
    res.write(PREFIX);
    if (record.body.model === 'cut') setTimeout(() => res.socket?.destroy(), 50);
  });
}

beforeAll(async () => {
  vendor = createServer(answer);
  await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
  const port = (vendor.address() as AddressInfo).port;
  // No default limits: the simulator key has no token limit, so only the usage receiver asks for the estimate.
  gw = await startTestGateway((config) => ({ ...config, server: { ...config.server, defaultLimits: {} } }));
  const config: CompiledConfig = gw.gateway.getSnapshot().config;
  const model = (upstream: string) => ({ ...config.models['sim-anthropic-chat'], id: `partial-${upstream}`, targets: [{ vendor: 'partial', upstream, weight: 1 }] });
  gw.gateway.reload({
    ...config,
    vendors: { ...config.vendors, partial: { ...config.vendors.anthropic, name: 'partial', baseUrl: `http://127.0.0.1:${port}` } },
    models: { ...config.models, 'partial-cut': model('cut'), 'partial-hold': model('hold'), 'partial-finish': model('finish') },
  });
});
afterAll(async () => {
  await gw.close();
  vendor.closeAllConnections();
  await new Promise((resolve) => vendor.close(resolve));
});

function sendMessages(model: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${gw.url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': gw.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'say hello' }] }),
    signal,
  });
}

/** The vendor got the client's request for its upstream model, with the vendor's key. */
function expectVendorRequest(record: Received, upstream: string): void {
  expect(record.url).toBe('/v1/messages');
  expect(record.headers['x-api-key']).toBe(SIMULATOR_KEYS.anthropic);
  expect(record.body).toMatchObject({ model: upstream, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'say hello' }] });
}

const estimateOutput = (bytes: number) => Math.ceil(bytes / STREAM_BYTES_PER_TOKEN);

/** Streams `model` to its end: the text the client read (a 200) and the request's usage event. */
async function streamWhole(model: string) {
  received.length = 0;
  const event = gw.nextEvent();
  const response = await sendMessages(model);
  expect(response.status).toBe(200);
  return { text: await response.text(), usage: await event };
}

describe('a request that fails after its vendor reported part of its usage', () => {
  it('cut by the vendor after message_start: logged 200 with an in-stream error, the reported input kept and the output estimated from the bytes streamed', async () => {
    const { text, usage } = await streamWhole('partial-cut');
    // What the vendor sent reached the client, then the gateway's error event in the Anthropic shape.
    const errorAt = text.indexOf('event: error\n');
    expect(errorAt).toBeGreaterThan(0);
    expect(text.slice(0, errorAt)).toContain('"text":"Hello"');
    expect(JSON.parse(text.slice(errorAt).split('data: ')[1])).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(usage).toMatchObject({ status: 200, model: 'partial-cut', vendorCalls: 1 });
    // Only the bytes before the error event were streamed from the vendor's answer.
    const output = estimateOutput(errorAt);
    expect(output).toBeGreaterThan(1);
    expect(usage.usage).toMatchObject({ inputTokens: 11, outputTokens: output, totalTokens: 11 + output, estimated: true });
    expect(received).toHaveLength(1);
    expectVendorRequest(received[0], 'cut');
  });

  it('left by the client after message_start: logged 499, the reported input kept and the output estimated from the bytes streamed', async () => {
    received.length = 0;
    const event = gw.nextEvent();
    const client = new AbortController();
    const response = await sendMessages('partial-hold', client.signal);
    expect(response.status).toBe(200);
    // Read until the vendor's first delta has arrived whole: the gateway streams nothing after it.
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('"text":"Hello"}}\n\n')) text += decoder.decode((await reader.read()).value, { stream: true });
    client.abort();
    const usage = await event;
    expect(usage).toMatchObject({ status: 499, error: 'client_closed_request', model: 'partial-hold', vendorCalls: 1 });
    const output = estimateOutput(Buffer.byteLength(text));
    expect(output).toBeGreaterThan(1);
    expect(usage.usage).toMatchObject({ inputTokens: 11, outputTokens: output, totalTokens: 11 + output, estimated: true });
    expect(received).toHaveLength(1);
    expectVendorRequest(received[0], 'hold');
    // The vendor would stay silent for ever: the gateway closed its request.
    await waitFor(() => received[0].closed);
  });
});

describe('a stream that finishes', () => {
  it("keeps the vendor's counts, not an estimate, though its bytes would estimate more output", async () => {
    const { text, usage } = await streamWhole('partial-finish');
    expect(text).toContain('event: message_stop');
    expect(estimateOutput(Buffer.byteLength(text))).toBeGreaterThan(6);
    expect(usage).toMatchObject({ status: 200, model: 'partial-finish', vendorCalls: 1 });
    expect(usage.error).toBeUndefined();
    expect(usage.usage).toMatchObject({ inputTokens: 11, outputTokens: 6, totalTokens: 17 });
    expect(usage.usage.estimated).toBeUndefined();
    expect(received).toHaveLength(1);
    expectVendorRequest(received[0], 'finish');
  });
});
