/**
 * Client mistakes answered by the gateway itself, in the caller's style, before any vendor is called:
 * malformed chat input in every style (translated), unknown huge model names (quoted clipped), missing
 * keys (naming the header of the caller's SDK) and unknown `/files/` paths (the gateway's error shape).
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());
beforeEach(() => {
  for (const sim of [gw.sims.openai, gw.sims.anthropic, gw.sims.gemini]) sim.reset();
});
const noVendorCalled = () => expect([gw.sims.openai, gw.sims.anthropic, gw.sims.gemini].map((sim) => sim.received.length)).toEqual([0, 0, 0]);

const post = (path: string, headers: Record<string, string>, body: unknown) =>
  fetch(gw.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('malformed chat input on a translated route', () => {
  it("is a 400 naming the field for the OpenAI SDK (role 'wizard', a tool with no name)", async () => {
    const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    const role: any = await openai.chat.completions.create({ model: 'sim-anthropic-chat', messages: [{ role: 'wizard' as 'user', content: 'hi' }] }).catch((e) => e);
    expect(role.status).toBe(400);
    expect(role.error).toMatchObject({ code: 'invalid_request', param: 'messages[0].role', type: 'invalid_request_error' });
    expect(role.error.message).toContain('"messages[0].role"');
    const tool: any = await openai.chat.completions.create({
      model: 'sim-gemini-chat', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { parameters: {} } as any }],
    }).catch((e) => e);
    expect(tool.status).toBe(400);
    expect(tool.error).toMatchObject({ code: 'invalid_request', param: 'tools[0].function.name' });
    noVendorCalled();
  });

  it('is a 400 in the messages error shape for the Anthropic SDK (content: 5)', async () => {
    const anthropic = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
    const error: any = await anthropic.messages.create({ model: 'sim-openai-chat', max_tokens: 10, messages: [{ role: 'user', content: 5 as any }] }).catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'Invalid field "messages[0].content": must be a string or an array of content parts.' } });
    noVendorCalled();
  });

  it("is a 400 INVALID_ARGUMENT for a generate-content client (parts: 'hi')", async () => {
    const response = await post('/v1beta/models/sim-anthropic-chat:generateContent', { 'x-goog-api-key': gw.key }, { contents: [{ role: 'user', parts: 'hi' }] });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 400, status: 'INVALID_ARGUMENT', message: 'Invalid field "contents[0].parts": must be a non-empty array.' } });
    noVendorCalled();
  });
});

describe('an unknown model name', () => {
  it('of 5 MB is quoted clipped in the 404', async () => {
    const model = 'm'.repeat(5 * 1024 * 1024);
    const response = await post('/v1/chat/completions', { authorization: `Bearer ${gw.key}` }, { model, messages: [{ role: 'user', content: 'hi' }] });
    const text = await response.text();
    expect(response.status).toBe(404);
    expect(text.length).toBeLessThan(1000);
    expect(JSON.parse(text).error).toMatchObject({ code: 'model_not_found', param: 'model', message: `The model "${'m'.repeat(256)}… (${model.length - 256} more characters)" does not exist.` });
    noVendorCalled();
  });

  it('in a generate-content path is quoted clipped too', async () => {
    const response = await post(`/v1beta/models/${'g'.repeat(8000)}:generateContent`, { 'x-goog-api-key': gw.key }, { contents: [{ parts: [{ text: 'hi' }] }] });
    const body: any = await response.json();
    expect(response.status).toBe(404);
    expect(body.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    expect(body.error.message.length).toBeLessThan(400);
  });
});

describe('a request without a key', () => {
  it.each([
    ['/v1/chat/completions', { model: 'gpt-4o', messages: [] }, (body: any) => body.error.message, ['Authorization: Bearer']],
    ['/v1/messages', { model: 'claude-sonnet-4-6', max_tokens: 5, messages: [] }, (body: any) => body.error.message, ['x-api-key', 'Authorization: Bearer']],
    ['/v1beta/models/gemini-2.5-flash:generateContent', { contents: [] }, (body: any) => body.error.message, ['x-goog-api-key', '?key=', 'Authorization: Bearer']],
  ])('on %s is a 401 naming the headers of that style', async (path, body, read, named) => {
    const response = await post(path, {}, body);
    expect(response.status).toBe(401);
    const message: string = read(await response.json());
    for (const header of named) expect(message).toContain(header);
    noVendorCalled();
  });
});

describe('/files/', () => {
  it.each(['/files/images/unknown.png', '/files/other', '/files/'])('answers GET %s with a 404 in the OpenAI error shape and an x-request-id', async (path) => {
    const response = await fetch(gw.url + path);
    expect(response.status).toBe(404);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const body: any = await response.json();
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param: null, code: path.startsWith('/files/images/') ? 'image_not_found' : 'route_not_found' });
  });
});
