import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findLeaks, LEAK_ENV, startLeakyGateway, type LeakStyle, type LeakyGateway } from '../helpers/start-leaky-gateway.ts';
import type { LeakProtocol } from '../helpers/start-leaky-vendor.ts';

let gw: LeakyGateway;

beforeAll(async () => {
  gw = await startLeakyGateway();
  gw.vendor.mode = 'stream-error';
  gw.vendor.extra = `(client ${LEAK_ENV.LEAK_CLIENT_KEY}, task ${LEAK_ENV.GATEWAY_TASK_SECRET}, store ${LEAK_ENV.LEAK_REDIS_URL})`;
});
afterAll(() => gw.close());
beforeEach(() => {
  gw.vendor.received.length = 0;
});

const VENDOR_KEYS: Record<LeakProtocol, string> = {
  openai: LEAK_ENV.LEAK_OPENAI_KEY,
  anthropic: LEAK_ENV.LEAK_ANTHROPIC_KEY,
  gemini: LEAK_ENV.LEAK_GEMINI_KEY,
};
/** How each style's in-stream error event begins. */
const ERROR_EVENT: Record<LeakStyle, string> = { openai: 'data: {"error":', anthropic: 'event: error\ndata: {"type":"error"', gemini: 'data: {"error":' };
const READABLE = 'bad request for key Bearer [redacted]; retry at https://vendor.example/v1/x?key=[redacted]';

const CASES = (['openai', 'anthropic', 'gemini'] as LeakStyle[]).flatMap((style) =>
  (['openai', 'anthropic', 'gemini'] as LeakProtocol[]).map((protocol) => ({ style, protocol, passthrough: style === protocol })),
);

describe('in-stream vendor errors that quote the gateway secrets', () => {
  it.each(CASES)('$style client, $protocol vendor (passthrough: $passthrough): the style\'s error event, readable, no secret', async ({ style, protocol }) => {
    const answer = await gw.call(style, protocol, true);
    expect(gw.vendor.received).toHaveLength(1);
    expect(gw.vendor.received[0]).toMatchObject({ protocol, credential: VENDOR_KEYS[protocol], stream: true });
    expect(findLeaks(answer.headers + answer.body)).toEqual([]);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('Hel');
    const error = answer.body.slice(answer.body.indexOf(ERROR_EVENT[style]));
    expect(error).toContain(ERROR_EVENT[style]);
    expect(error).toContain(READABLE);
    expect(error).toContain('(client [redacted], task [redacted], store redis://:[redacted]@127.0.0.1:6390/0)');
  });
});

describe('the official SDKs raise the redacted vendor message', () => {
  it('OpenAI SDK, stream translated from an Anthropic-protocol vendor', async () => {
    const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: LEAK_ENV.LEAK_CLIENT_KEY, maxRetries: 0 });
    const stream = await openai.chat.completions.create({ model: 'leak-anthropic', messages: [{ role: 'user', content: 'hi' }], stream: true });
    const failure = await (async () => {
      for await (const _chunk of stream) gw.vendor.release();
    })().catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain(READABLE);
    expect(findLeaks(String((failure as Error).message))).toEqual([]);
  });

  it('Anthropic SDK, passthrough stream', async () => {
    const anthropic = new Anthropic({ baseURL: gw.url, apiKey: LEAK_ENV.LEAK_CLIENT_KEY, maxRetries: 0 });
    const stream = anthropic.messages.stream({ model: 'leak-anthropic', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    stream.on('text', () => gw.vendor.release());
    const failure = await stream.finalMessage().catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain(READABLE);
    expect(findLeaks((failure as Error).message)).toEqual([]);
  });

  it('Google Gen AI SDK, stream translated from an OpenAI-protocol vendor', async () => {
    const google = new GoogleGenAI({ apiKey: LEAK_ENV.LEAK_CLIENT_KEY, httpOptions: { baseUrl: gw.url } });
    const failure = await (async () => {
      for await (const _chunk of await google.models.generateContentStream({ model: 'leak-openai', contents: 'hi' })) gw.vendor.release();
    })().catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain(READABLE);
    expect(findLeaks((failure as Error).message)).toEqual([]);
  });
});
