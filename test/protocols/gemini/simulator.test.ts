import { GoogleGenAI } from '@google/genai';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGeminiSimulator } from '../../../src/protocols/gemini/simulator/index.ts';
import type { Simulator } from '../../../src/simulators/types.ts';
import { parseSse, readFixture, readSseFixture, shapeOf } from '../../simulators/helpers.ts';

const KEY = 'AIzaSy-sim-gemini';
let sim: Simulator;

async function call(path: string, body?: unknown, headers: Record<string, string> = { 'x-goog-api-key': KEY }) {
  const res = await request(`${sim.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

beforeAll(async () => {
  sim = await startGeminiSimulator();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('Gemini simulator', () => {
  it('answers generateContent with the structure of generateContent-response.json', async () => {
    const req = readFixture('gemini/generateContent-request.json');
    const res = await call('/models/gemini-2.0-flash:generateContent', req);
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text);
    const fixture = readFixture('gemini/generateContent-response.json');
    expect(Object.keys(body).sort()).toEqual(Object.keys(fixture).sort());
    expect(shapeOf(body.candidates)).toEqual(shapeOf(fixture.candidates));
    expect(shapeOf(body.usageMetadata)).toEqual(shapeOf(fixture.usageMetadata));
    expect(body.candidates[0].content.parts[0].text).toBe('Echo: What is in this image? Answer in one sentence.');
    expect(body.usageMetadata).toMatchObject({ promptTokenCount: 26, candidatesTokenCount: 10, totalTokenCount: 36 });
    expect(body.modelVersion).toBe('gemini-2.0-flash');
    expect(sim.received[0].url).toBe('/v1beta/models/gemini-2.0-flash:generateContent');
    expect(JSON.parse(sim.received[0].body.toString())).toEqual(req);
  });

  it('answers functionDeclarations with a functionCall part as in function-call-response.json', async () => {
    const body = JSON.parse((await call('/models/gemini-2.0-flash:generateContent', readFixture('gemini/function-call-request.json'))).text);
    expect(shapeOf(body.candidates[0].content)).toEqual(shapeOf(readFixture('gemini/function-call-response.json').candidates[0].content));
    expect(body.candidates[0].content.parts[0].functionCall).toEqual({ name: 'customDivide', args: { numerator: 1, denominator: 1 } });
    expect(body.candidates[0].finishReason).toBe('STOP');
    const after = JSON.parse((await call('/models/gemini-2.0-flash:generateContent', readFixture('gemini/function-response-request.json'))).text);
    expect(after.candidates[0].content.parts).toEqual([{ text: 'Echo: {"output":5}' }]);
  });

  it('streams CRLF-framed data: events with new text only; the last has finishReason and full usage', async () => {
    const res = await call('/models/gemini-2.0-flash:streamGenerateContent?alt=sse', readFixture('gemini/streamGenerateContent-request.json'));
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.text.endsWith('\r\n\r\n')).toBe(true);
    expect(res.text.replaceAll('\r\n', '')).not.toContain('\n');
    expect(res.text).not.toContain('[DONE]');
    const events = parseSse(res.text).map((e) => JSON.parse(e.data));
    const fixture = readSseFixture('gemini/streamGenerateContent.sse').map((e) => JSON.parse(e.data));
    expect(shapeOf(events[0])).toEqual(shapeOf(fixture[0]));
    expect(shapeOf(events[events.length - 1])).toEqual(shapeOf(fixture[fixture.length - 1]));
    expect(events.map((e) => e.candidates[0].content.parts[0].text).join('')).toBe('Echo: why is the sky blue?');
    expect(events.slice(0, -1).every((e) => e.candidates[0].finishReason === undefined)).toBe(true);
    expect(events[events.length - 1].usageMetadata).toMatchObject({ promptTokenCount: 5, candidatesTokenCount: 6, totalTokenCount: 11 });
  });

  it('answers streamGenerateContent without alt=sse as one JSON array of the chunks', async () => {
    const res = await call('/models/gemini-2.0-flash:streamGenerateContent', { contents: [{ parts: [{ text: 'a b' }] }] });
    const chunks = JSON.parse(res.text);
    expect(Array.isArray(chunks)).toBe(true);
    expect(chunks.map((c: any) => c.candidates[0].content.parts[0].text).join('')).toBe('Echo: a b');
    expect(chunks.at(-1).candidates[0].finishReason).toBe('STOP');
  });

  it('cuts the reply at maxOutputTokens words with finishReason MAX_TOKENS', async () => {
    const body = JSON.parse((await call('/models/gemini-2.0-flash:generateContent', { contents: [{ parts: [{ text: 'a b c' }] }], generationConfig: { maxOutputTokens: 2 } })).text);
    expect(body.candidates[0]).toMatchObject({ content: { parts: [{ text: 'Echo: a' }] }, finishReason: 'MAX_TOKENS' });
  });

  it('accepts the key as ?key= and answers a wrong key with HTTP 400 exactly like error-400.json', async () => {
    const ok = await call(`/models/gemini-2.0-flash:generateContent?key=${KEY}`, { contents: [{ parts: [{ text: 'hi' }] }] }, {});
    expect(ok.status).toBe(200);
    const bad = await call('/models/gemini-2.0-flash:generateContent', { contents: [] }, { 'x-goog-api-key': 'wrong' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toEqual(readFixture('gemini/error-400.json'));
  });

  it('answers an unknown model with 404 like error-404.json', async () => {
    const res = await call('/models/custom-gemini-2.0-flash:generateContent', { contents: [{ parts: [{ text: 'hi' }] }] });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toEqual(readFixture('gemini/error-404.json'));
  });

  it('rejects unknown top-level fields and the role assistant with 400 INVALID_ARGUMENT', async () => {
    const unknown = await call('/models/gemini-2.0-flash:generateContent', { contents: [{ parts: [{ text: 'x' }] }], messages: [] });
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.text).error).toMatchObject({ status: 'INVALID_ARGUMENT', message: 'Invalid JSON payload received. Unknown name "messages": Cannot find field.' });
    const role = await call('/models/gemini-2.0-flash:generateContent', { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] });
    expect(role.status).toBe(400);
    expect(JSON.parse(role.text).error.message).toBe('Please use a valid role: user, model.');
    const snake = await call('/models/gemini-2.0-flash:generateContent', { contents: [{ parts: [{ text: 'x' }] }], system_instruction: { parts: [{ text: 'y' }] } });
    expect(snake.status).toBe(200);
  });

  it('counts tokens and embeds (single and batch)', async () => {
    const count = JSON.parse((await call('/models/gemini-2.0-flash:countTokens', { contents: [{ parts: [{ text: 'one two' }] }] })).text);
    expect(count.totalTokens).toBe(2);
    const one = JSON.parse((await call('/models/text-embedding-004:embedContent', { content: { parts: [{ text: 'a' }] }, outputDimensionality: 4 })).text);
    expect(one.embedding.values).toHaveLength(4);
    const batch = JSON.parse((await call('/models/text-embedding-004:batchEmbedContents', { requests: [{ model: 'models/text-embedding-004', content: { parts: [{ text: 'a' }] } }, { model: 'models/text-embedding-004', content: { parts: [{ text: 'b' }] } }] })).text);
    expect(batch.embeddings).toHaveLength(2);
    expect(batch.embeddings[0].values).toHaveLength(768);
    expect(batch.embeddings[0].values.slice(0, 4)).toEqual(one.embedding.values);
  });

  it('lists models in pages (pageSize, pageToken) and gets one model', async () => {
    const first = JSON.parse((await call('/models?pageSize=2')).text);
    expect(shapeOf(first)).toEqual(shapeOf(readFixture('gemini/models-list.json')));
    expect(first.models).toHaveLength(2);
    const names = [...first.models.map((m: any) => m.name)];
    let token = first.nextPageToken;
    while (token) {
      const page = JSON.parse((await call(`/models?pageSize=2&pageToken=${token}`)).text);
      names.push(...page.models.map((m: any) => m.name));
      token = page.nextPageToken;
    }
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('models/gemini-2.5-flash');
    const one = JSON.parse((await call('/models/gemini-2.5-flash')).text);
    expect(one.name).toBe('models/gemini-2.5-flash');
  });

  it('answers a status fault with the Google error envelope', async () => {
    sim.failNext({ kind: 'status', status: 429 });
    const res = await call('/models/gemini-2.0-flash:generateContent', { contents: [] });
    expect(res.status).toBe(429);
    expect(JSON.parse(res.text).error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
  });

  it('emits exactly streamEvents chunks spaced by streamIntervalMs', async () => {
    const paced = await startGeminiSimulator({ streamEvents: 3, streamIntervalMs: 30 });
    try {
      const started = Date.now();
      const res = await request(`${paced.url}/models/gemini-2.0-flash:streamGenerateContent?alt=sse`, {
        method: 'POST',
        headers: { 'x-goog-api-key': KEY },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
      });
      const events = parseSse(await res.body.text()).map((e) => JSON.parse(e.data));
      expect(Date.now() - started).toBeGreaterThanOrEqual(80);
      expect(events).toHaveLength(3);
      expect(events.map((e) => e.candidates[0].content.parts[0].text).join('')).toBe('Echo: hi');
    } finally {
      await paced.close();
    }
  });

  it('is accepted by the official @google/genai SDK for generateContent, non-stream and stream', async () => {
    const ai = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: sim.url.replace(/\/v1beta$/, '') } });
    const done = await ai.models.generateContent({ model: 'gemini-2.0-flash', contents: 'Hello SDK' });
    expect(done.text).toBe('Echo: Hello SDK');
    let text = '';
    let usage: unknown;
    for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.0-flash', contents: 'Hello stream' })) {
      text += chunk.text ?? '';
      usage = chunk.usageMetadata;
    }
    expect(text).toBe('Echo: Hello stream');
    expect(usage).toMatchObject({ promptTokenCount: 2, candidatesTokenCount: 3 });
    expect(sim.received[1].url).toBe('/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse');
    expect(sim.received[0].headers['x-goog-api-key']).toBe(KEY);
  });
});
