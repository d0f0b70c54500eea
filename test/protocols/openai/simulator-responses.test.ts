import OpenAI from 'openai';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../../../src/protocols/openai/simulator/index.ts';
import { parseSse, readFixture, readSseFixture, shapeOf } from '../../simulators/helpers.ts';

const KEY = 'sk-sim-openai';
let sim: OpenAISimulator;

async function post(path: string, body: unknown) {
  const res = await request(`${sim.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.statusCode, text: await res.body.text() };
}

function collapse(names: string[]): string[] {
  return names.filter((n, i) => i === 0 || n !== names[i - 1]);
}

beforeAll(async () => {
  sim = await startOpenAISimulator();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('OpenAI simulator: responses and legacy completions', () => {
  it('answers a non-stream response with the structure of responses-response.json', async () => {
    const res = await post('/responses', { ...readFixture('openai/responses-request.json'), stream: false });
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text);
    expect(shapeOf(body)).toEqual(shapeOf(readFixture('openai/responses-response.json')));
    expect(body.output[0].content[0].text).toBe('Echo: Hello!');
    expect(body.usage).toMatchObject({ input_tokens: 6, output_tokens: 2, total_tokens: 8 });
  });

  it('streams the events of responses-stream.sse in order, with increasing sequence_number and no [DONE]', async () => {
    const res = await post('/responses', readFixture('openai/responses-request.json'));
    const events = parseSse(res.text);
    const fixture = readSseFixture('openai/responses-stream.sse');
    expect(collapse(events.map((e) => e.event!))).toEqual(collapse(fixture.map((e) => e.event!)));
    expect(events.map((e) => JSON.parse(e.data).sequence_number)).toEqual(events.map((_, i) => i));
    for (const name of new Set(fixture.map((e) => e.event))) {
      const mine = events.find((e) => e.event === name)!;
      const theirs = fixture.find((e) => e.event === name)!;
      expect(shapeOf(JSON.parse(mine.data)), name).toEqual(shapeOf(JSON.parse(theirs.data)));
    }
    expect(res.text).not.toContain('[DONE]');
  });

  it('answers function tools with function_call items, streamed as argument deltas', async () => {
    const tools = [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];
    const done = JSON.parse((await post('/responses', { model: 'gpt-4o-mini', input: 'Paris', tools })).text);
    expect(done.output[0]).toMatchObject({ type: 'function_call', name: 'get_weather', arguments: '{"city":"Paris"}' });
    const events = parseSse((await post('/responses', { model: 'gpt-4o-mini', input: 'Paris', tools, stream: true })).text);
    const args = events.filter((e) => e.event === 'response.function_call_arguments.delta').map((e) => JSON.parse(e.data).delta).join('');
    expect(args).toBe('{"city":"Paris"}');
    expect(events.at(-1)!.event).toBe('response.completed');
    const after = JSON.parse((await post('/responses', { model: 'gpt-4o-mini', tools, input: [{ type: 'function_call_output', call_id: 'c', output: 'sunny' }] })).text);
    expect(after.output[0].content[0].text).toBe('Echo: sunny');
  });

  it('compacts a conversation into user messages plus one compaction item', async () => {
    const body = JSON.parse((await post('/responses/compact', { model: 'gpt-4o-mini', input: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'yo' }] })).text);
    expect(body.object).toBe('response.compaction');
    expect(body.output.map((o: any) => o.type)).toEqual(['message', 'compaction']);
    expect(body.output[1].encrypted_content).toEqual(expect.any(String));
  });

  it('answers legacy completions like completions-legacy-response.json and -stream.sse', async () => {
    const req = readFixture('openai/completions-legacy-request.json');
    const body = JSON.parse((await post('/completions', { ...req, max_tokens: 2 })).text);
    expect(shapeOf(body)).toEqual(shapeOf(readFixture('openai/completions-legacy-response.json')));
    expect(body.choices[0]).toMatchObject({ text: 'Echo: Say', finish_reason: 'length' });
    const events = parseSse((await post('/completions', { ...req, stream: true })).text);
    const fixture = readSseFixture('openai/completions-legacy-stream.sse');
    expect(shapeOf(JSON.parse(events[0].data))).toEqual(shapeOf(JSON.parse(fixture[0].data)));
    expect(events.at(-1)!.data).toBe('[DONE]');
    expect(JSON.parse(events.at(-2)!.data).choices[0]).toMatchObject({ text: '', finish_reason: 'stop' });
    expect(events.slice(0, -2).map((e) => JSON.parse(e.data).choices[0].text).join('')).toBe('Echo: Say this is a test');
  });

  it('is accepted by the official openai SDK for responses, non-stream and stream', async () => {
    const client = new OpenAI({ apiKey: KEY, baseURL: sim.url, maxRetries: 0 });
    const done = await client.responses.create({ model: 'gpt-4o-mini', input: 'Hi there' });
    expect(done.output_text).toBe('Echo: Hi there');
    const stream = client.responses.stream({ model: 'gpt-4o-mini', input: 'Hi stream' });
    let text = '';
    stream.on('response.output_text.delta', (e) => (text += e.delta));
    const final = await stream.finalResponse();
    expect(text).toBe('Echo: Hi stream');
    expect(final.output_text).toBe('Echo: Hi stream');
    expect(sim.received.map((r) => r.url)).toEqual(['/v1/responses', '/v1/responses']);
  });
});
