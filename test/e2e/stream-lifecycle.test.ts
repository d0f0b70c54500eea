import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

/** A vendor that sends SSE headers and one event, then goes silent; it records when its client left. */
let vendor: Server;
const seen: { url: string; closedAt?: number }[] = [];
let gw: TestGateway;

function stall(req: IncomingMessage, res: import('node:http').ServerResponse) {
  const record: { url: string; closedAt?: number } = { url: req.url! };
  seen.push(record);
  res.on('close', () => (record.closedAt = Date.now()));
  req.resume();
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  if (req.url!.includes('messages')) {
    res.write('event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"m","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":0}}}\n\n');
  } else {
    res.write('data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"partial"},"finish_reason":null}]}\n\n');
  }
}

beforeAll(async () => {
  vendor = createServer(stall);
  await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
  const port = (vendor.address() as AddressInfo).port;
  gw = await startTestGateway();
  const base = gw.gateway.getSnapshot().config;
  const model = base.models['sim-openai-chat'];
  const config: CompiledConfig = {
    ...base,
    vendors: {
      ...base.vendors,
      'stall-openai': { ...base.vendors.openai, name: 'stall-openai', baseUrl: `http://127.0.0.1:${port}/v1`, timeouts: { headersMs: 5_000, bodyMs: 300 } },
      'stall-patient': { ...base.vendors.openai, name: 'stall-patient', baseUrl: `http://127.0.0.1:${port}/v1`, timeouts: { headersMs: 30_000, bodyMs: 30_000 } },
      'stall-anthropic': { ...base.vendors.anthropic, name: 'stall-anthropic', baseUrl: `http://127.0.0.1:${port}`, timeouts: { headersMs: 5_000, bodyMs: 300 } },
    },
    models: {
      ...base.models,
      'stall-openai': { ...model, id: 'stall-openai', targets: [{ vendor: 'stall-openai', upstream: 'm', weight: 1 }] },
      'stall-patient': { ...model, id: 'stall-patient', targets: [{ vendor: 'stall-patient', upstream: 'm', weight: 1 }] },
      'stall-anthropic': { ...model, id: 'stall-anthropic', targets: [{ vendor: 'stall-anthropic', upstream: 'm', weight: 1 }] },
    },
  };
  gw.gateway.reload(config);
});
afterAll(async () => {
  await gw.close();
  vendor.closeAllConnections();
  await new Promise((resolve) => vendor.close(resolve));
});

describe('streams that stop flowing', () => {
  it('ends an OpenAI-style stream with an error the SDK raises when the vendor goes silent after headers', async () => {
    const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    const stream = await openai.chat.completions.create({ model: 'stall-openai', messages: [{ role: 'user', content: 'x' }], stream: true });
    let text = '';
    const failure = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    })().catch((error: Error) => error);
    expect(text).toBe('partial');
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toMatch(/silent|timeout/i);
  });

  it('ends a messages-style stream with an `event: error` the Anthropic SDK raises', async () => {
    const anthropic = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
    const stream = anthropic.messages.stream({ model: 'stall-anthropic', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    const failure = await stream.finalMessage().catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toMatch(/timeout_error|silent/i);
  });

  it('aborts the vendor request as soon as the client disconnects', async () => {
    seen.length = 0;
    const event = gw.nextEvent();
    const controller = new AbortController();
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'stall-patient', stream: true, messages: [{ role: 'user', content: 'x' }] }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    const abortedAt = Date.now();
    controller.abort();
    const usage = await event;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toHaveLength(1);
    expect(seen[0].closedAt).toBeDefined();
    // The vendor would wait 30 s of silence: only the client's abort can close it this early.
    expect(seen[0].closedAt! - abortedAt).toBeLessThan(5_000);
    expect(usage).toMatchObject({ status: 499, error: 'client_closed_request' });
    expect(usage.vendorCalls).toBe(1);
  });
});
