import Anthropic from '@anthropic-ai/sdk';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicSimulator } from '../../../src/protocols/anthropic/simulator/index.ts';
import type { Simulator } from '../../../src/simulators/types.ts';
import { parseSse, readFixture, readSseFixture, shapeOf } from '../../simulators/helpers.ts';

const KEY = 'sk-ant-sim-anthropic';
let sim: Simulator;

async function post(path: string, body: unknown, headers: Record<string, string> = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' }) {
  const res = await request(`${sim.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

/** The `event:` names of a stream with text deltas and json deltas told apart, runs collapsed. */
function orderOf(events: { event?: string; data: string }[]): string[] {
  const names = events.map((e) => (e.event === 'content_block_delta' ? `delta:${JSON.parse(e.data).delta.type}` : e.event ?? ''));
  return names.filter((n, i) => i === 0 || n !== names[i - 1]);
}

beforeAll(async () => {
  sim = await startAnthropicSimulator();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('Anthropic simulator', () => {
  it('answers a non-stream message with the structure of messages-response.json', async () => {
    const req = readFixture('anthropic/messages-request.json');
    const res = await post('/v1/messages', req);
    expect(res.status).toBe(200);
    expect(res.headers['request-id']).toMatch(/^req_/);
    const body = JSON.parse(res.text);
    expect(shapeOf(body)).toEqual(shapeOf(readFixture('anthropic/messages-response.json')));
    expect(body.content[0].text).toBe('Echo: What is in this image? Answer in one sentence.');
    expect(body.usage).toMatchObject({ input_tokens: 14, output_tokens: 10 });
    expect(JSON.parse(sim.received[0].body.toString())).toEqual(req);
    expect(sim.received[0].url).toBe('/v1/messages');
  });

  it('streams exactly the event order of messages-stream.sse, with event: lines, ping and usage', async () => {
    const res = await post('/v1/messages', { model: 'claude-sonnet-4-6', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Hello there' }] });
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = parseSse(res.text);
    const fixture = readSseFixture('anthropic/messages-stream.sse');
    expect(orderOf(events)).toEqual(orderOf(fixture));
    for (let i = 0; i < 3; i++) expect(shapeOf(JSON.parse(events[i].data))).toEqual(shapeOf(JSON.parse(fixture[i].data)));
    expect(events.every((e) => e.event === JSON.parse(e.data).type)).toBe(true);
    const last = events.length - 2;
    expect(shapeOf(JSON.parse(events[last].data))).toEqual(shapeOf(JSON.parse(fixture[fixture.length - 2].data)));
    const text = events.filter((e) => e.event === 'content_block_delta').map((e) => JSON.parse(e.data).delta.text).join('');
    expect(text).toBe('Echo: Hello there');
    expect(JSON.parse(events[last].data).usage.output_tokens).toBe(3);
  });

  it('streams a tool call as in messages-tools-stream.sse with input_json_delta fragments and stop_reason tool_use', async () => {
    const res = await post('/v1/messages', readFixture('anthropic/messages-tools-request.json'));
    const events = parseSse(res.text);
    expect(orderOf(events)).toEqual(orderOf(readSseFixture('anthropic/messages-tools-stream.sse')));
    const json = events
      .filter((e) => e.event === 'content_block_delta' && JSON.parse(e.data).delta.type === 'input_json_delta')
      .map((e) => JSON.parse(e.data).delta.partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({ location: "What's the weather like in Paris?" });
    expect(JSON.parse(events[events.length - 2].data).delta.stop_reason).toBe('tool_use');
  });

  it('answers tool_use non-stream and text after a tool_result', async () => {
    const req = { ...readFixture('anthropic/messages-tools-request.json'), stream: false };
    const first = JSON.parse((await post('/v1/messages', req)).text);
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content.map((b: any) => b.type)).toEqual(['text', 'tool_use']);
    expect(first.content[1]).toMatchObject({ name: 'get_weather', input: { location: "What's the weather like in Paris?" } });
    const follow = JSON.parse((await post('/v1/messages', readFixture('anthropic/messages-tools-followup-request.json'))).text);
    expect(follow.stop_reason).toBe('end_turn');
    expect(follow.content).toEqual([{ type: 'text', text: 'Echo: 15 degrees celsius, light rain' }]);
  });

  it('cuts the reply at max_tokens words with stop_reason max_tokens', async () => {
    const body = JSON.parse((await post('/v1/messages', { model: 'm', max_tokens: 2, messages: [{ role: 'user', content: 'a b c d' }] })).text);
    expect(body.content[0].text).toBe('Echo: a');
    expect(body.stop_reason).toBe('max_tokens');
  });

  it('accepts the key as Authorization: Bearer and rejects a wrong key with 401 like error-401.json', async () => {
    const ok = await post('/v1/messages', { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }, { authorization: `Bearer ${KEY}`, 'anthropic-version': '2023-06-01' });
    expect(ok.status).toBe(200);
    const bad = await post('/v1/messages', {}, { 'x-api-key': 'nope', 'anthropic-version': '2023-06-01' });
    expect(bad.status).toBe(401);
    const body = JSON.parse(bad.text);
    expect(shapeOf(body)).toEqual(shapeOf(readFixture('anthropic/error-401.json')));
    expect(body.error).toEqual({ type: 'authentication_error', message: 'invalid x-api-key' });
  });

  it('requires the anthropic-version header (400 invalid_request_error)', async () => {
    const res = await post('/v1/messages', { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }, { 'x-api-key': KEY });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' } });
  });

  it('rejects a missing max_tokens and a system role message with 400', async () => {
    const noMax = JSON.parse((await post('/v1/messages', { model: 'm', messages: [{ role: 'user', content: 'x' }] })).text);
    expect(noMax.error.message).toBe('max_tokens: Field required');
    const sys = JSON.parse((await post('/v1/messages', { model: 'm', max_tokens: 5, messages: [{ role: 'system', content: 'x' }] })).text);
    expect(sys.error.message).toMatch(/Unexpected role "system"/);
  });

  it('counts tokens and lists models', async () => {
    const count = JSON.parse((await post('/v1/messages/count_tokens', { model: 'm', system: 'be brief', messages: [{ role: 'user', content: 'one two three' }] })).text);
    expect(count).toEqual({ input_tokens: 5 });
    const res = await request(`${sim.url}/v1/models`, { headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' } });
    const list = (await res.body.json()) as any;
    expect(list).toMatchObject({ has_more: false, first_id: list.data[0].id });
    expect(list.data[0]).toMatchObject({ type: 'model', id: expect.any(String), display_name: expect.any(String) });
  });

  it('answers a status fault with the Anthropic error envelope (529 overloaded)', async () => {
    sim.failNext({ kind: 'status', status: 529 });
    const res = await post('/v1/messages', {});
    expect(res.status).toBe(529);
    const body = JSON.parse(res.text);
    expect(shapeOf(body)).toEqual(shapeOf(readFixture('anthropic/error-overloaded-529.json')));
    expect(body.error.type).toBe('overloaded_error');
  });

  it('emits exactly streamEvents text deltas spaced by streamIntervalMs, and a mid-stream reset cuts it after N events', async () => {
    const paced = await startAnthropicSimulator({ streamEvents: 4, streamIntervalMs: 30 });
    try {
      const body = JSON.stringify({ model: 'm', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'hi' }] });
      const headers = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' };
      const started = Date.now();
      const res = await request(`${paced.url}/v1/messages`, { method: 'POST', headers, body });
      const events = parseSse(await res.body.text());
      expect(Date.now() - started).toBeGreaterThanOrEqual(110);
      const deltas = events.filter((e) => e.event === 'content_block_delta');
      expect(deltas).toHaveLength(4);
      expect(deltas.map((e) => JSON.parse(e.data).delta.text).join('')).toBe('Echo: hi');
      paced.failNext({ kind: 'reset-mid-stream', afterEvents: 4 });
      const cut = await request(`${paced.url}/v1/messages`, { method: 'POST', headers, body });
      let text = '';
      await expect((async () => {
        for await (const chunk of cut.body) text += chunk;
      })()).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
      expect(parseSse(text).map((e) => e.event)).toEqual(['message_start', 'content_block_start', 'ping', 'content_block_delta']);
    } finally {
      await paced.close();
    }
  });

  it('is accepted by the official @anthropic-ai/sdk for messages, non-stream and stream', async () => {
    const client = new Anthropic({ apiKey: KEY, baseURL: sim.url, maxRetries: 0 });
    const msg = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'Hi SDK' }] });
    expect(msg.content[0]).toMatchObject({ type: 'text', text: 'Echo: Hi SDK' });
    const stream = client.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'Hi stream' }] });
    let text = '';
    stream.on('text', (t) => (text += t));
    const final = await stream.finalMessage();
    expect(text).toBe('Echo: Hi stream');
    expect(final.usage.output_tokens).toBe(3);
    expect(sim.received[0].headers['anthropic-version']).toBeDefined();
    expect(sim.received[0].headers.authorization).toBe(`Bearer ${KEY}`);
  });
});
