import OpenAI from 'openai';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../../../src/protocols/openai/simulator/index.ts';
import { readFixture, shapeOf } from '../../simulators/helpers.ts';

const KEY = 'sk-sim-openai';
let sim: OpenAISimulator;

async function post(path: string, body: unknown) {
  const res = await request(`${sim.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.statusCode, body: (await res.body.json()) as any };
}

beforeAll(async () => {
  sim = await startOpenAISimulator();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('OpenAI simulator: embeddings, moderations, rerank, models', () => {
  it('answers embeddings with the structure of embeddings-response.json and `dimensions` floats', async () => {
    const res = await post('/embeddings', readFixture('openai/embeddings-request.json'));
    expect(res.status).toBe(200);
    expect(shapeOf(res.body)).toEqual(shapeOf(readFixture('openai/embeddings-response.json')));
    expect(res.body.data.map((d: any) => d.embedding.length)).toEqual([8, 8]);
    expect(res.body.data[0].embedding).not.toEqual(res.body.data[1].embedding);
    expect(res.body.usage).toEqual({ prompt_tokens: 16, total_tokens: 16 });
  });

  it('encodes base64 embeddings as little-endian float32 that decode to the float form', async () => {
    const req = { model: 'text-embedding-3-small', input: 'hello world', dimensions: 16 };
    const floats = (await post('/embeddings', { ...req, encoding_format: 'float' })).body.data[0].embedding;
    const encoded = (await post('/embeddings', { ...req, encoding_format: 'base64' })).body.data[0].embedding;
    expect(typeof encoded).toBe('string');
    const bytes = Buffer.from(encoded, 'base64');
    const decoded = Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
    expect(decoded).toEqual(floats);
    const client = new OpenAI({ apiKey: KEY, baseURL: sim.url, maxRetries: 0 });
    const viaSdk = await client.embeddings.create(req);
    expect(JSON.parse(sim.received.at(-1)!.body.toString()).encoding_format).toBe('base64');
    expect(viaSdk.data[0].embedding).toEqual(floats);
  });

  it('flags a moderation input containing "forbidden" and passes others', async () => {
    const res = await post('/moderations', { input: ['a forbidden thing', 'a kind thing'] });
    expect(res.body.model).toBe('omni-moderation-latest');
    expect(res.body.results.map((r: any) => r.flagged)).toEqual([true, false]);
    expect(res.body.results[0].categories.violence).toBe(true);
    expect(Object.keys(res.body.results[0].category_scores)).toHaveLength(13);
  });

  it('reranks documents Jina/Cohere-style: best first, cut to top_n, documents on request', async () => {
    const res = await post('/rerank', { model: 'rerank-v1', query: 'red apple', documents: ['green pear', 'red apple pie', 'a red car'], top_n: 2, return_documents: true });
    expect(res.body.results).toEqual([
      { index: 1, relevance_score: 1, document: { text: 'red apple pie' } },
      { index: 2, relevance_score: 0.5, document: { text: 'a red car' } },
    ]);
    expect(res.body.usage.total_tokens).toBeGreaterThan(0);
  });

  it('lists models in the shape of models-list.json and gets one', async () => {
    const res = await request(`${sim.url}/models`, { headers: { authorization: `Bearer ${KEY}` } });
    const body = (await res.body.json()) as any;
    expect(shapeOf(body)).toEqual(shapeOf(readFixture('openai/models-list.json')));
    const one = await request(`${sim.url}/models/gpt-4o-mini`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(await one.body.json()).toMatchObject({ id: 'gpt-4o-mini', object: 'model' });
    const missing = await request(`${sim.url}/models/nope`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(missing.statusCode).toBe(404);
    expect(((await missing.body.json()) as any).error.code).toBe('model_not_found');
  });

  it('answers an unknown path with 404 "Invalid URL" in OpenAI shape', async () => {
    const res = await post('/nothing/here', {});
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('Invalid URL (POST /v1/nothing/here)');
  });
});
