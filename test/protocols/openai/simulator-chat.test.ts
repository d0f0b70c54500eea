import OpenAI from 'openai';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../../../src/protocols/openai/simulator/index.ts';
import { collapseRuns, parseSse, readFixture, readSseFixture, shapeOf } from '../../simulators/helpers.ts';

const KEY = 'sk-sim-openai';
let sim: OpenAISimulator;

async function post(path: string, body: unknown, key = KEY) {
  const res = await request(`${sim.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

/** Names an OpenAI chat chunk by what it carries. */
function kindOf(data: string): string {
  if (data === '[DONE]') return 'done';
  const chunk = JSON.parse(data);
  if (chunk.choices.length === 0) return 'usage';
  const { delta, finish_reason } = chunk.choices[0];
  if (finish_reason) return `finish:${finish_reason}`;
  if (delta.role) return 'role';
  if (delta.tool_calls) return delta.tool_calls[0].id ? 'tool-start' : 'tool-args';
  return 'content';
}

beforeAll(async () => {
  sim = await startOpenAISimulator();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('OpenAI simulator: chat completions', () => {
  it('answers a non-stream chat with the structure of chat-response.json, echoing the last user message', async () => {
    const req = readFixture('openai/chat-request.json');
    const res = await post('/chat/completions', req);
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text);
    expect(shapeOf(body)).toEqual(shapeOf(readFixture('openai/chat-response.json')));
    expect(body.choices[0].message.content).toBe('Echo: What is in this image? Answer in one sentence.');
    expect(body.model).toBe('gpt-4o-mini');
    expect(body.usage).toMatchObject({ prompt_tokens: 14, completion_tokens: 10, total_tokens: 24 });
    expect(sim.received).toHaveLength(1);
    expect(sim.received[0].url).toBe('/v1/chat/completions');
    expect(JSON.parse(sim.received[0].body.toString())).toEqual(req);
  });

  it('streams role, content deltas, finish, usage chunk and [DONE] in the order of chat-stream.sse', async () => {
    const res = await post('/chat/completions', readFixture('openai/chat-stream-request.json'));
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = parseSse(res.text);
    const fixture = readSseFixture('openai/chat-stream.sse');
    expect(collapseRuns(events.map((e) => kindOf(e.data)))).toEqual(collapseRuns(fixture.map((e) => kindOf(e.data))));
    for (const i of [0, 1, events.length - 3, events.length - 2]) {
      const j = i < 2 ? i : fixture.length - (events.length - i);
      expect(shapeOf(JSON.parse(events[i].data))).toEqual(shapeOf(JSON.parse(fixture[j].data)));
    }
    const text = events.filter((e) => kindOf(e.data) === 'content').map((e) => JSON.parse(e.data).choices[0].delta.content).join('');
    expect(text).toBe('Echo: Hello!');
    expect(JSON.parse(events[events.length - 2].data).usage).toMatchObject({ prompt_tokens: 6, completion_tokens: 2, total_tokens: 8 });
  });

  it('sends no usage chunk and no usage field when stream_options.include_usage is not set', async () => {
    const res = await post('/chat/completions', { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const kinds = parseSse(res.text).map((e) => kindOf(e.data));
    expect(kinds).toEqual(['role', 'content', 'content', 'finish:stop', 'done']);
    expect(JSON.parse(parseSse(res.text)[0].data)).not.toHaveProperty('usage');
  });

  it('answers a request with tools by calling each tool, like chat-tools-response.json', async () => {
    const req = { ...readFixture('openai/chat-tools-request.json'), stream: false, stream_options: undefined };
    const body = JSON.parse((await post('/chat/completions', req)).text);
    expect(shapeOf(body)).toEqual(shapeOf(readFixture('openai/chat-tools-response.json')));
    expect(body.choices[0].finish_reason).toBe('tool_calls');
    const calls = body.choices[0].message.tool_calls;
    expect(calls.map((c: any) => c.function.name)).toEqual(['get_weather', 'get_stock_price']);
    expect(JSON.parse(calls[0].function.arguments)).toEqual({ city: "What's the weather like in Edinburgh, and what's the price of AAPL?" });
  });

  it('calls only the first tool when parallel_tool_calls is false and none when tool_choice is "none"', async () => {
    const base = { ...readFixture('openai/chat-tools-request.json'), stream: false, stream_options: undefined };
    const one = JSON.parse((await post('/chat/completions', { ...base, parallel_tool_calls: false })).text);
    expect(one.choices[0].message.tool_calls).toHaveLength(1);
    const none = JSON.parse((await post('/chat/completions', { ...base, tool_choice: 'none' })).text);
    expect(none.choices[0].finish_reason).toBe('stop');
  });

  it('streams tool calls in the pattern of chat-tools-stream.sse, with arguments that join into JSON', async () => {
    const res = await post('/chat/completions', readFixture('openai/chat-tools-request.json'));
    const events = parseSse(res.text);
    const fixture = readSseFixture('openai/chat-tools-stream.sse');
    expect(collapseRuns(events.map((e) => kindOf(e.data)))).toEqual(collapseRuns(fixture.map((e) => kindOf(e.data))));
    expect(shapeOf(JSON.parse(events[1].data))).toEqual(shapeOf(JSON.parse(fixture[1].data)));
    expect(shapeOf(JSON.parse(events[2].data))).toEqual(shapeOf(JSON.parse(fixture[2].data)));
    const args = ['', ''];
    for (const e of events.filter((ev) => kindOf(ev.data).startsWith('tool'))) {
      const call = JSON.parse(e.data).choices[0].delta.tool_calls[0];
      args[call.index] += call.function.arguments;
    }
    expect(JSON.parse(args[1])).toEqual({ ticker: "What's the weather like in Edinburgh, and what's the price of AAPL?" });
  });

  it('answers text after tool results (last message role tool)', async () => {
    const body = JSON.parse((await post('/chat/completions', readFixture('openai/chat-tools-followup-request.json'))).text);
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.choices[0].message.content).toBe('Echo: {"price": 227.52, "currency": "USD"}');
  });

  it('cuts the reply at max_completion_tokens words with finish_reason length', async () => {
    const body = JSON.parse((await post('/chat/completions', { model: 'm', max_completion_tokens: 2, messages: [{ role: 'user', content: 'a b c' }] })).text);
    expect(body.choices[0]).toMatchObject({ message: { content: 'Echo: a' }, finish_reason: 'length' });
    expect(body.usage.completion_tokens).toBe(2);
  });

  it('emits exactly streamEvents content events spaced by streamIntervalMs', async () => {
    const paced = await startOpenAISimulator({ streamEvents: 5, streamIntervalMs: 40 });
    try {
      const started = Date.now();
      const res = await request(`${paced.url}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}` },
        body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'a b' }] }),
      });
      const events = parseSse(await res.body.text());
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
      expect(events.filter((e) => kindOf(e.data) === 'content')).toHaveLength(5);
      expect(events.filter((e) => kindOf(e.data) === 'content').map((e) => JSON.parse(e.data).choices[0].delta.content).join('')).toBe('Echo: a b');
    } finally {
      await paced.close();
    }
  });

  it('rejects a missing or wrong key with 401 in the shape of error-401.json', async () => {
    const wrong = await post('/chat/completions', { model: 'm', messages: [] }, 'sk-wrong-key-123456');
    expect(wrong.status).toBe(401);
    const body = JSON.parse(wrong.text);
    expect(shapeOf(body)).toEqual(shapeOf(readFixture('openai/error-401.json')));
    expect(body.error).toMatchObject({ code: 'invalid_api_key', type: 'invalid_request_error' });
    expect(body.error.message).toContain('sk-************3456');
    const missing = await request(`${sim.url}/models`);
    expect(missing.statusCode).toBe(401);
    expect((await missing.body.json()) as any).toMatchObject({ error: { type: 'invalid_request_error', code: null } });
  });

  it('answers 400 in OpenAI shape for a body that is not JSON or lacks messages', async () => {
    const res = await request(`${sim.url}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: '{oops' });
    expect(res.statusCode).toBe(400);
    expect(((await res.body.json()) as any).error.message).toMatch(/could not parse the JSON body/);
    const missing = JSON.parse((await post('/chat/completions', { model: 'm' })).text);
    expect(missing.error).toMatchObject({ param: 'messages', code: 'missing_required_parameter' });
  });

  it('does not record requests when started with record: false', async () => {
    const quiet = await startOpenAISimulator({ record: false });
    try {
      const res = await request(`${quiet.url}/models`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(res.statusCode).toBe(200);
      await res.body.dump();
      expect(quiet.received).toEqual([]);
    } finally {
      await quiet.close();
    }
  });

  it('is accepted by the official openai SDK for chat, non-stream and stream', async () => {
    const client = new OpenAI({ apiKey: KEY, baseURL: sim.url, maxRetries: 0 });
    const done = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello SDK' }] });
    expect(done.choices[0].message.content).toBe('Echo: Hello SDK');
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hello stream' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Echo: Hello stream');
    expect(usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 3 });
    expect(sim.received.map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
  });
});
