import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';
import { RESULT, WEATHER_SCHEMA } from './translation-drivers.ts';

let gw: TestGateway;

/**
 * Two stateless OpenAI-compatible targets: `compat-chat` on a vendor whose YAML says
 * `responses: { state: gateway }`, and `stateless-model` whose model says so on the ordinary OpenAI vendor.
 */
beforeAll(async () => {
  gw = await startTestGateway((config) => ({
    ...config,
    vendors: { ...config.vendors, compat: { ...config.vendors.openai, name: 'compat', responses: { state: 'gateway' } } },
    models: {
      ...config.models,
      'compat-chat': { ...config.models['sim-openai-chat'], id: 'compat-chat', targets: [{ vendor: 'compat', upstream: 'compat-upstream', weight: 1 }] },
      'stateless-model': { ...config.models['sim-openai-chat'], id: 'stateless-model', responses: { store: true, state: 'gateway' } },
    },
  }));
});
afterAll(() => gw.close());
beforeEach(() => gw.sims.openai.reset());

const openai = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });

/** The vendor's last request: its path and the chat messages it was sent, as role + text (tool parts named). */
function readLastRequest(): { url: string; body: any; messages: string[] } {
  const last = gw.sims.openai.received.at(-1)!;
  const body = JSON.parse(last.body.toString());
  const messages = (body.messages ?? []).map((m: any) => `${m.role}: ${typeof m.content === 'string' ? m.content : m.content === null ? '' : m.content.map((p: any) => p.text).join('')}${m.tool_calls ? m.tool_calls.map((c: any) => `tool_call ${c.function.name}`).join(' ') : ''}`);
  return { url: last.url, body, messages };
}

describe('responses: { state: gateway } on an OpenAI-compatible vendor that keeps no Responses state', () => {
  test('previous_response_id is resolved by the gateway (whole and streamed): the vendor gets the whole history as chat completions', async () => {
    const first = await openai().responses.create({ model: 'compat-chat', input: 'first question' });
    expect(first).toMatchObject({ store: true, output_text: 'Echo: first question' });
    expect(first.id).not.toMatch(/^resp_sim/);
    expect(readLastRequest()).toMatchObject({ url: '/v1/chat/completions', body: { model: 'compat-upstream' }, messages: ['user: first question'] });
    const second = await openai().responses.stream({ model: 'compat-chat', input: 'second question', previous_response_id: first.id }).finalResponse();
    expect(second).toMatchObject({ store: true, previous_response_id: first.id, output_text: 'Echo: second question' });
    const sent = readLastRequest();
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.body).not.toHaveProperty('previous_response_id');
    expect(sent.messages).toEqual(['user: first question', 'assistant: Echo: first question', 'user: second question']);
    expect(gw.sims.openai.received.every((r) => !r.url.startsWith('/v1/responses'))).toBe(true);
  });

  test('retrieve, inputItems.list and delete are served from the gateway store, with no vendor call', async () => {
    const first = await openai().responses.create({ model: 'compat-chat', input: 'keep me' });
    gw.sims.openai.reset();
    expect((await openai().responses.retrieve(first.id)).output_text).toBe('Echo: keep me');
    const items = await openai().responses.inputItems.list(first.id);
    expect(items.data.map((item: any) => item.content[0].text)).toEqual(['keep me']);
    expect(await openai().responses.delete(first.id)).toMatchObject({ id: first.id, deleted: true });
    const error: any = await openai().responses.retrieve(first.id).catch((e) => e);
    expect([error.status, error.error.code]).toEqual([404, 'response_not_found']);
    expect(gw.sims.openai.received).toEqual([]);
  });

  test('on the model: a tool loop sending the function call back by item_reference reaches the vendor resolved', async () => {
    const tools = [{ type: 'function' as const, name: 'get_weather', parameters: WEATHER_SCHEMA, strict: false }];
    const first = await openai().responses.create({ model: 'stateless-model', input: 'Paris', tools });
    const call = first.output.find((item) => item.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    const second = await openai().responses.create({
      model: 'stateless-model',
      tools,
      input: [
        { role: 'user', content: 'Paris' },
        { type: 'item_reference', id: call.id! },
        { type: 'function_call_output', call_id: call.call_id, output: JSON.stringify(RESULT) },
      ],
    });
    expect(second.output_text).toBe(`Echo: ${JSON.stringify(RESULT)}`);
    const sent = readLastRequest();
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.messages).toEqual(['user: Paris', 'assistant: tool_call get_weather', `tool: ${JSON.stringify(RESULT)}`]);
    expect(sent.body.messages[1].tool_calls[0].id).toBe(call.call_id);
  });

  test('compacting is refused with 400 before any vendor call, as for Anthropic and Gemini models', async () => {
    const error: any = await openai().responses.compact({ model: 'compat-chat', input: 'compact me' } as any).catch((e) => e);
    expect([error.status, error.error?.code]).toEqual([400, 'unsupported_parameter']);
    expect(gw.sims.openai.received).toEqual([]);
    await openai().responses.compact({ model: 'sim-openai-chat', input: 'compact me' } as any);
    expect(readLastRequest().url).toBe('/v1/responses/compact');
  });

  test('the same model without state: gateway passes through to the vendor, which resolves previous_response_id itself', async () => {
    const first = await openai().responses.create({ model: 'sim-openai-chat', input: 'vendor side' });
    await openai().responses.create({ model: 'sim-openai-chat', input: 'next', previous_response_id: first.id });
    expect(readLastRequest()).toMatchObject({ url: '/v1/responses', body: { previous_response_id: first.id, input: 'next' } });
  });
});
