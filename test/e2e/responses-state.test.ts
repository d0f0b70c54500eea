import { createHash } from 'node:crypto';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';
import { MODEL, RESULT, WEATHER_SCHEMA } from './translation-drivers.ts';

const OTHER_KEY = 'sk-other-key-for-responses';
let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway((config) => ({
    ...config,
    server: { ...config.server, responses: { ttlMs: 3_600_000, maxBytes: 64 * 1024 } },
    keys: [...config.keys, { name: 'other', secret: { sha256: createHash('sha256').update(OTHER_KEY).digest('hex') }, models: ['*'], limits: {}, strict: false }],
    models: { ...config.models, 'sim-openai-private': { ...config.models['sim-openai-chat'], id: 'sim-openai-private', responses: { store: false } } },
  }));
});
afterAll(() => gw.close());
beforeEach(() => {
  gw.sims.openai.reset();
  gw.sims.anthropic.reset();
  gw.sims.gemini.reset();
});

const openai = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });

/** The messages the simulated vendor received in its last request, as role + text (tool parts named). */
function readHistory(vendor: 'anthropic' | 'gemini'): string[] {
  const body = JSON.parse(gw.sims[vendor].received.at(-1)!.body.toString());
  if (vendor === 'anthropic') {
    return body.messages.map((m: any) => `${m.role}: ${(typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content)
      .map((b: any) => (b.type === 'text' ? b.text : b.type === 'tool_use' ? `tool_use ${b.name}` : `tool_result ${b.content}`)).join(' | ')}`);
  }
  return body.contents.map((c: any) => `${c.role}: ${c.parts
    .map((p: any) => (p.text !== undefined ? p.text : p.functionCall ? `tool_use ${p.functionCall.name}` : `tool_result ${JSON.stringify(p.functionResponse.response)}`)).join(' | ')}`);
}

const other = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: OTHER_KEY, maxRetries: 0 });

describe.each(['anthropic', 'gemini'] as const)('Responses state kept by the gateway for a %s vendor', (vendor) => {
  const assistant = vendor === 'anthropic' ? 'assistant' : 'model';

  test('previous_response_id continues the conversation, whole and streamed; the response says store: true', async () => {
    const first = await openai().responses.create({ model: MODEL[vendor], input: 'first question' });
    expect(first).toMatchObject({ store: true, previous_response_id: null, output_text: 'Echo: first question' });
    const second = await openai().responses.create({ model: MODEL[vendor], input: 'second question', previous_response_id: first.id });
    expect(second).toMatchObject({ store: true, previous_response_id: first.id, output_text: 'Echo: second question' });
    expect(readHistory(vendor)).toEqual(['user: first question', `${assistant}: Echo: first question`, 'user: second question']);
    const stream = openai().responses.stream({ model: MODEL[vendor], input: 'third question', previous_response_id: second.id });
    const created: any[] = [];
    stream.on('response.created', (event) => created.push(event.response));
    const third = await stream.finalResponse();
    expect(third).toMatchObject({ store: true, previous_response_id: second.id, output_text: 'Echo: third question' });
    expect(created[0]).toMatchObject({ id: third.id, store: true });
    expect(readHistory(vendor)).toEqual([
      'user: first question', `${assistant}: Echo: first question`, 'user: second question', `${assistant}: Echo: second question`, 'user: third question',
    ]);
    const fourth = await openai().responses.create({ model: MODEL[vendor], input: 'fourth', previous_response_id: third.id });
    expect(fourth.output_text).toBe('Echo: fourth');
    expect(readHistory(vendor)).toHaveLength(7);
  });

  test('a tool loop sends the function call back by item_reference', async () => {
    const tools = [{ type: 'function' as const, name: 'get_weather', parameters: WEATHER_SCHEMA, strict: false }];
    const first = await openai().responses.create({ model: MODEL[vendor], input: 'Paris', tools });
    const call = first.output.find((item) => item.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    expect(call.id).toMatch(/^fc_/);
    const second = await openai().responses.create({
      model: MODEL[vendor],
      tools,
      input: [
        { role: 'user', content: 'Paris' },
        ...first.output.map((item) => ({ type: 'item_reference' as const, id: item.id! })),
        { type: 'function_call_output', call_id: call.call_id, output: JSON.stringify(RESULT) },
      ],
    });
    expect(second.output_text).toBe(`Echo: ${JSON.stringify(RESULT)}`);
    const history = readHistory(vendor);
    expect(history[0]).toBe('user: Paris');
    expect(history[1]).toContain('tool_use get_weather');
    expect(history[2]).toContain(`tool_result`);
    expect(history[2]).toContain('rain');
  });

  test('retrieve, inputItems.list and delete serve the stored response; then it is gone', async () => {
    const first = await openai().responses.create({ model: MODEL[vendor], input: 'keep me' });
    const second = await openai().responses.create({ model: MODEL[vendor], input: [{ role: 'user', content: 'and me' }], previous_response_id: first.id });
    expect(await openai().responses.retrieve(second.id)).toEqual(second);
    const items = await openai().responses.inputItems.list(second.id, { order: 'asc' });
    expect(items.data.map((item: any) => [item.type, item.role, item.content[0].text])).toEqual([
      ['message', 'user', 'keep me'], ['message', 'assistant', 'Echo: keep me'], ['message', 'user', 'and me'],
    ]);
    expect(items.data.every((item) => typeof item.id === 'string')).toBe(true);
    const newest = await openai().responses.inputItems.list(second.id, { limit: 1 });
    expect(newest.data.map((item: any) => item.content[0].text)).toEqual(['and me']);
    expect(newest.has_more).toBe(true);
    const deleted: unknown = await openai().responses.delete(second.id);
    expect(deleted).toMatchObject({ id: second.id, object: 'response', deleted: true });
    const error: any = await openai().responses.retrieve(second.id).catch((e) => e);
    expect(error.status).toBe(404);
    expect(error.error).toMatchObject({ code: 'response_not_found' });
    expect((await openai().responses.retrieve(first.id)).id).toBe(first.id);
  });

  test('store: false keeps nothing and says so', async () => {
    const first = await openai().responses.create({ model: MODEL[vendor], input: 'forget me', store: false });
    expect(first).toMatchObject({ store: false });
    const error: any = await openai().responses.retrieve(first.id).catch((e) => e);
    expect(error.status).toBe(404);
    gw.sims[vendor].reset();
    const next: any = await openai().responses.create({ model: MODEL[vendor], input: 'x', previous_response_id: first.id }).catch((e) => e);
    expect([next.status, next.error.code]).toEqual([404, 'response_not_found']);
    expect(gw.sims[vendor].received).toEqual([]);
  });
});

describe('a response over server.responses.max_size', () => {
  test('streamed: created says store: true, completed says store: false, and nothing is kept', async () => {
    const stream = openai().responses.stream({ model: MODEL.gemini, input: 'word '.repeat(20_000) });
    const created: any[] = [];
    stream.on('response.created', (event) => created.push(structuredClone(event.response)));
    const final = await stream.finalResponse();
    expect(created[0]).toMatchObject({ store: true });
    expect(final).toMatchObject({ store: false });
    const error: any = await openai().responses.retrieve(final.id).catch((e) => e);
    expect(error.status).toBe(404);
  });
});

describe('Responses ids are bound to the key that created them', () => {
  test('an unknown id, and another key\'s id or item, are 404 before any vendor call', async () => {
    const first = await openai().responses.create({ model: MODEL.anthropic, input: 'mine' });
    gw.sims.anthropic.reset();
    for (const request of [
      () => openai().responses.create({ model: MODEL.anthropic, input: 'x', previous_response_id: 'resp_unknown' }),
      () => other().responses.create({ model: MODEL.anthropic, input: 'x', previous_response_id: first.id }),
      () => other().responses.create({ model: MODEL.anthropic, input: [{ type: 'item_reference', id: first.output[0].id! }] }),
      () => other().responses.retrieve(first.id),
      () => other().responses.inputItems.list(first.id),
      () => other().responses.delete(first.id),
    ]) {
      const error: any = await request().catch((e: unknown) => e);
      expect(error.status).toBe(404);
      expect(['response_not_found', 'item_not_found']).toContain(error.error.code);
    }
    expect(gw.sims.anthropic.received).toEqual([]);
    expect((await openai().responses.retrieve(first.id)).output_text).toBe('Echo: mine');
  });
});

describe('an OpenAI-protocol vendor keeps its own Responses state', () => {
  test('the request passes through unchanged; with responses: { store: false } on the model it is sent with store: false', async () => {
    await openai().responses.create({ model: MODEL.openai, input: 'vendor keeps it' });
    expect(JSON.parse(gw.sims.openai.received.at(-1)!.body.toString())).toEqual({ model: 'gpt-4o-mini', input: 'vendor keeps it' });
    await openai().responses.create({ model: 'sim-openai-private', input: 'vendor keeps nothing', store: true });
    expect(JSON.parse(gw.sims.openai.received.at(-1)!.body.toString())).toEqual({ model: 'gpt-4o-mini', input: 'vendor keeps nothing', store: false });
  });
});
