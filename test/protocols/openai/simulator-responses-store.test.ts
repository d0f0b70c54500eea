import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../../../src/protocols/openai/simulator/index.ts';

let sim: OpenAISimulator;
let client: OpenAI;

beforeAll(async () => {
  sim = await startOpenAISimulator();
  client = new OpenAI({ apiKey: 'sk-sim-openai', baseURL: sim.url, maxRetries: 0 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

/** The simulated OpenAI keeps responses as the Responses API does, read through the official SDK. */
describe('OpenAI simulator: stored responses', () => {
  it('keeps a response (stream or not) for retrieve, inputItems.list and delete; then 404', async () => {
    const first = await client.responses.create({ model: 'gpt-4o-mini', input: 'one' });
    const second = await client.responses.stream({ model: 'gpt-4o-mini', input: [{ role: 'user', content: 'two' }], previous_response_id: first.id }).finalResponse();
    expect(second.previous_response_id).toBe(first.id);
    expect(await client.responses.retrieve(second.id)).toMatchObject({ id: second.id, status: 'completed', previous_response_id: first.id, output_text: 'Echo: two' });
    const items = await client.responses.inputItems.list(second.id, { order: 'asc' });
    expect(items.data.map((item: any) => [item.type, item.role, item.content[0].text])).toEqual([
      ['message', 'user', 'one'], ['message', 'assistant', 'Echo: one'], ['message', 'user', 'two'],
    ]);
    expect(items.data.every((item) => typeof item.id === 'string')).toBe(true);
    const page = await client.responses.inputItems.list(second.id, { limit: 1 });
    expect([page.data.map((item: any) => item.content[0].text), page.has_more]).toEqual([['two'], true]);
    const next = await client.responses.inputItems.list(second.id, { limit: 5, after: page.data[0].id! });
    expect(next.data.map((item: any) => item.content[0].text)).toEqual(['Echo: one', 'one']);
    expect(await client.responses.delete(second.id)).toMatchObject({ id: second.id, object: 'response', deleted: true });
    const gone: any = await client.responses.retrieve(second.id).catch((e) => e);
    expect([gone.status, gone.error.message]).toEqual([404, `Response with id '${second.id}' not found.`]);
    const again: any = await client.responses.delete(second.id).catch((e) => e);
    expect(again.status).toBe(404);
  });

  it('keeps nothing with store: false, and an unknown previous_response_id is 400 previous_response_not_found', async () => {
    const unstored = await client.responses.create({ model: 'gpt-4o-mini', input: 'gone', store: false });
    expect(unstored).toMatchObject({ store: false });
    expect(((await client.responses.retrieve(unstored.id).catch((e) => e)) as any).status).toBe(404);
    const error: any = await client.responses.create({ model: 'gpt-4o-mini', input: 'x', previous_response_id: unstored.id }).catch((e) => e);
    expect([error.status, error.error.code, error.error.param]).toEqual([400, 'previous_response_not_found', 'previous_response_id']);
  });

  it('answers a bad input_items query with 400', async () => {
    const created = await client.responses.create({ model: 'gpt-4o-mini', input: 'q' });
    for (const query of [{ limit: 0 }, { limit: 101 }, { order: 'up' as 'asc' }]) {
      const error: any = await client.responses.inputItems.list(created.id, query).catch((e) => e);
      expect(error.status).toBe(400);
    }
  });
});
