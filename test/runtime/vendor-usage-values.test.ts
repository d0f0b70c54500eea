/**
 * A vendor's usage counts are input like any other: whatever a (buggy or hostile) OpenAI-protocol vendor puts
 * in `usage` (strings, negatives, fractions, huge or non-finite numbers, objects, one with a null toString), the request's usage event
 * (what limits, spend and metrics read) holds only whole, non-negative, safe token counts, and the client still
 * gets the vendor's answer unchanged.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_CLIENT_KEY } from '../../src/simulate.ts';
import { startOwnVendorGateway, type OwnVendorGateway } from '../helpers/start-own-vendor-gateway.ts';
import { runFuzz } from '../fuzz/fuzz-run.ts';

let usage: unknown = {};
let vendor: Server;
let gw: OwnVendorGateway;

function answer(stream: boolean): string {
  const chunk = { id: 'c1', object: 'chat.completion', created: 1, model: 'odd', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }], usage };
  if (!stream) return JSON.stringify(chunk);
  const last = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'odd', choices: [], usage };
  return `data: ${JSON.stringify({ ...chunk, object: 'chat.completion.chunk', usage: undefined })}\n\ndata: ${JSON.stringify(last)}\n\ndata: [DONE]\n\n`;
}

beforeAll(async () => {
  vendor = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk)).on('end', () => {
      const stream = JSON.parse(body).stream === true;
      res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' }).end(answer(stream));
    });
  });
  await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
  // No limits: huge reported counts must not be refused, and `FUZZ_LONG=1` sends thousands of requests a minute.
  gw = await startOwnVendorGateway('odd', `http://127.0.0.1:${(vendor.address() as AddressInfo).port}/v1`, { noLimits: true });
});
afterAll(async () => {
  await gw.close();
  await new Promise((resolve) => vendor.close(resolve));
});

const count = fc.oneof(fc.nat(), fc.double(), fc.integer({ min: -1e6, max: -1 }), fc.constant(1e300), fc.string(), fc.constant(null), fc.object(), fc.constant('12'), fc.constant({ toString: null, valueOf: null }));
const usages = fc.oneof(
  fc.record({ prompt_tokens: count, completion_tokens: count, total_tokens: count, prompt_tokens_details: fc.oneof(fc.record({ cached_tokens: count }), count), completion_tokens_details: fc.oneof(fc.record({ reasoning_tokens: count }), count) }, { requiredKeys: [] }),
  fc.jsonValue(),
);
const isCount = (value: unknown) => value === undefined || (Number.isSafeInteger(value) && (value as number) >= 0);

describe('usage counts a vendor reports', () => {
  it('reach the usage event as whole non-negative counts or not at all, passed through or translated, stream or not', async () => {
    const cases = fc.record({ value: usages, stream: fc.boolean(), translated: fc.boolean() });
    await runFuzz('vendor usage values', cases, async ({ value, stream, translated }) => {
      usage = value;
      const event = gw.nextEvent();
      const body = { model: 'odd-chat', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }], stream };
      const response = await fetch(`${gw.url}/v1/${translated ? 'messages' : 'chat/completions'}`, {
        method: 'POST', headers: { authorization: `Bearer ${SIMULATOR_CLIENT_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
      });
      const text = await response.text();
      const { usage: charged, status } = await event;
      const problems: string[] = [];
      if (response.status !== 200 || status !== 200) problems.push(`status ${response.status}: ${text.slice(0, 200)}`);
      for (const [name, counted] of Object.entries(charged)) {
        if (name !== 'estimated' && !isCount(counted)) problems.push(`usage.${name} = ${JSON.stringify(counted)}`);
      }
      return problems;
    }, 60);
  });

  it('keeps a well-formed report as the vendor gave it', async () => {
    usage = { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10, prompt_tokens_details: { cached_tokens: 2 } };
    const event = gw.nextEvent();
    await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${SIMULATOR_CLIENT_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'odd-chat', messages: [{ role: 'user', content: 'hi' }] }) });
    expect((await event).usage).toMatchObject({ inputTokens: 7, outputTokens: 3, totalTokens: 10, cachedInputTokens: 2 });
  });

  it.each([false, true])('counts nothing from counts that are objects with a null toString (the estimate stands in), and the client gets the answer whole (stream %s)', async (stream) => {
    usage = { prompt_tokens: { toString: null }, completion_tokens: { valueOf: null, toString: null } };
    const event = gw.nextEvent();
    const response = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${SIMULATOR_CLIENT_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'odd-chat', messages: [{ role: 'user', content: 'hi' }], stream, ...(stream && { stream_options: { include_usage: true } }) }) });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(answer(stream));
    // No count read from the vendor: the gateway's own estimate stands in, marked as one.
    expect((await event).usage).toMatchObject({ estimated: true });
  });
});
