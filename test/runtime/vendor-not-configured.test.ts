import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileConfigFile } from '../../src/config/index.ts';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.ts';
import { SIMULATOR_KEYS, startAnthropicSimulator, startOpenAISimulator, type Simulator } from '../../src/simulators/index.ts';
import { defineModel, definePolicy, defineTarget } from '../helpers/start-policy-gateway.ts';

const KEY = 'sk-not-configured-test';

/**
 * A vendor whose `env:` key is unset (OPENAI_API_KEY here) is never called: its models answer 503
 * `vendor_not_configured` naming the vendor, in the caller's style; other vendors serve as usual.
 */
describe('a vendor whose key is unset', () => {
  let openai: Simulator;
  let anthropic: Simulator;
  let gateway: Gateway;
  let url: string;

  beforeAll(async () => {
    [openai, anthropic] = await Promise.all([startOpenAISimulator(), startAnthropicSimulator()]);
    const { config } = await compileConfigFile('gateway.yaml');
    config!.vendors.openai = { ...config!.vendors.openai, baseUrl: openai.url };
    config!.vendors.anthropic = { ...config!.vendors.anthropic, baseUrl: anthropic.url };
    config!.models['with-fallback'] = defineModel(
      'with-fallback',
      [defineTarget('openai', 'gpt-4o')],
      [defineTarget('anthropic', 'claude-sonnet-4-6')],
      definePolicy(),
    );
    gateway = createGateway({ config: config!, env: { GATEWAY_API_KEY: KEY, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: SIMULATOR_KEYS.anthropic } });
    url = await gateway.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await gateway?.close(0);
    await Promise.all([openai?.close(), anthropic?.close()]);
  });

  async function post(path: string, body: object, headers: Record<string, string> = { authorization: `Bearer ${KEY}` }) {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, text: await response.text() };
  }

  it('answers 503 vendor_not_configured naming the vendor, never the variable, in each style, and never calls it', async () => {
    openai.reset();
    const messages = [{ role: 'user', content: 'hi' }];
    const chat = await post('/v1/chat/completions', { model: 'gpt-4o', messages });
    expect(chat.status).toBe(503);
    expect(JSON.parse(chat.text).error).toMatchObject({ code: 'vendor_not_configured', type: 'server_error' });
    expect(JSON.parse(chat.text).error.message).toContain('"openai"');

    const stream = await post('/v1/chat/completions', { model: 'gpt-4o', stream: true, messages });
    expect(stream.status).toBe(503);
    expect(JSON.parse(stream.text).error.code).toBe('vendor_not_configured');

    const embeddings = await post('/v1/embeddings', { model: 'text-embedding-3-small', input: 'hi' });
    expect(embeddings.status).toBe(503);

    const translated = await post(
      '/v1/messages',
      { model: 'gpt-4o', max_tokens: 10, messages },
      { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
    );
    expect(translated.status).toBe(503);
    expect(JSON.parse(translated.text)).toMatchObject({ type: 'error', error: { type: 'api_error' } });

    for (const answer of [chat, stream, embeddings, translated]) expect(answer.text).not.toContain('OPENAI_API_KEY');
    expect(openai.received).toEqual([]);
  });

  it('refuses a realtime WebSocket upgrade to that vendor with the same 503, without connecting to it', async () => {
    openai.reset();
    const socket = new WebSocket(`${url.replace('http', 'ws')}/v1/realtime?model=gpt-realtime`, { headers: { authorization: `Bearer ${KEY}` } });
    const refused = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      socket.once('open', () => reject(new Error('the upgrade was accepted')));
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
    });
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body).error).toMatchObject({ code: 'vendor_not_configured' });
    expect(refused.body).not.toContain('OPENAI_API_KEY');
    expect(openai.received).toEqual([]);
  });

  it('falls back to a configured vendor, and vendors with a key serve as usual', async () => {
    openai.reset();
    anthropic.reset();
    const fallback = await post('/v1/chat/completions', { model: 'with-fallback', messages: [{ role: 'user', content: 'fall back' }] });
    expect(fallback.status).toBe(200);
    expect(JSON.parse(fallback.text).choices[0].message.content).toContain('fall back');
    expect(openai.received).toEqual([]);
    expect(anthropic.received).toHaveLength(1);
    expect(anthropic.received[0].headers['x-api-key']).toBe(SIMULATOR_KEYS.anthropic);
  });
});
