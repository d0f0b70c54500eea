import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_SECRET, startConsoleGateway, type ConsoleGateway } from '../helpers/start-console-gateway.ts';

/** The playground: a chat under a chosen key, the answer, and what the vendor received and answered (no credential). */
let gw: ConsoleGateway;
beforeAll(async () => {
  gw = await startConsoleGateway();
});
afterAll(() => gw.close());

const CREDENTIAL = /authorization|x-api-key|x-goog-api-key|sim-|sk-/i;

describe('POST /admin/playground', () => {
  for (const style of ['openai', 'anthropic', 'gemini'] as const) {
    it(`answers a ${style}-style chat translated to an OpenAI vendor, with the vendor's request and raw answer, no credential`, async () => {
      const seen = gw.sims.openai.received.length;
      const reply = await gw.callAdmin('/admin/playground', { body: { key: 'team', model: 'sim-openai-chat', style, stream: style === 'gemini', prompt: 'ping' } });
      expect(reply.status).toBe(200);
      expect(reply.json.status).toBe(200);
      // A streamed answer (gemini here) comes in pieces: "Echo:" then " ping".
      expect(reply.json.answer).toMatch(style === 'gemini' ? /"text":"Echo:"[^]*"text":" ping"/ : /Echo: ping/);
      const [exchange] = reply.json.exchanges;
      expect(exchange.request.method).toBe('POST');
      expect(exchange.request.url).toMatch(/\/chat\/completions$/);
      expect(JSON.parse(exchange.request.body)).toMatchObject({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ping' }] });
      expect(exchange.response.status).toBe(200);
      expect(exchange.response.body).toMatch(style === 'gemini' ? /"content":"Echo:"[^]*"content":" ping"/ : /Echo: ping/);
      expect(Object.keys(exchange.request.headers).join(' ')).not.toMatch(CREDENTIAL);
      expect(JSON.stringify(reply.json.exchanges[0].request.headers)).not.toContain(gw.env.OPENAI_API_KEY ?? 'no-such-secret');
      // The vendor really got it: the simulator recorded the same body.
      expect(gw.sims.openai.received.length).toBe(seen + 1);
      expect(gw.sims.openai.received.at(-1)!.body.toString('utf8')).toBe(exchange.request.body);
    });
  }

  it('counts against the chosen key: its rpm refuses the next call with 429, and the call shows in the tail rows', async () => {
    await gw.callAdmin('/admin/keys/limits', { body: { name: 'team', limits: { rpm: 1 } } });
    const reply = await gw.callAdmin('/admin/playground', { body: { key: 'team', model: 'sim-openai-chat', style: 'openai', stream: false, prompt: 'again' } });
    expect(reply.json.status).toBe(429);
    expect(reply.json.exchanges).toEqual([]);
    expect(gw.console.feed.listRecent().filter((row) => row.key === 'team').length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(reply.json)).not.toContain(TEAM_SECRET);
  });

  it('refuses an unknown key, an admin key, an unknown model or style with a clear 4xx', async () => {
    const call = { key: 'team', model: 'sim-openai-chat', style: 'openai', stream: false, prompt: 'x' };
    expect((await gw.callAdmin('/admin/playground', { body: { ...call, key: 'nobody' } })).json.error.code).toBe('key_not_found');
    expect((await gw.callAdmin('/admin/playground', { body: { ...call, key: 'ops' } })).json.error.code).toBe('key_not_found');
    expect((await gw.callAdmin('/admin/playground', { body: { ...call, model: 'nope' } })).json.error.code).toBe('model_not_found');
    // gateway.yaml's `default` key reads GATEWAY_API_KEY, unset here: not in force, so not usable here either.
    expect((await gw.callAdmin('/admin/playground', { body: { ...call, key: 'default' } })).json.error.code).toBe('key_not_found');
    const style = await gw.callAdmin('/admin/playground', { body: { ...call, style: 'cohere' } });
    expect(style.status).toBe(400);
    expect(style.json.error.code).toBe('invalid_playground_call');
  });
});
