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

type Family = 'chat-completions' | 'messages' | 'generate-content';
interface Route {
  family: Family;
  method: 'GET' | 'POST';
  path: string;
  body?: object;
}
const USER = [{ role: 'user', content: 'x' }];
const ROUTES: Route[] = [
  { family: 'chat-completions', method: 'POST', path: '/v1/chat/completions', body: { model: 'sim-openai-chat', messages: USER } },
  { family: 'chat-completions', method: 'GET', path: '/v1/models' },
  { family: 'messages', method: 'POST', path: '/v1/messages', body: { model: 'sim-anthropic-chat', max_tokens: 5, messages: USER } },
  { family: 'messages', method: 'POST', path: '/v1/messages/count_tokens', body: { model: 'sim-anthropic-chat', messages: USER } },
  { family: 'generate-content', method: 'POST', path: '/v1beta/models/sim-gemini-chat:generateContent', body: { contents: [{ role: 'user', parts: [{ text: 'x' }] }] } },
  { family: 'generate-content', method: 'GET', path: '/v1beta/models' },
];

async function send(route: Route, headers: Record<string, string>, query = '') {
  const response = await fetch(gw.url + route.path + query, {
    method: route.method,
    headers: { ...(route.body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: route.body ? JSON.stringify(route.body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** The error code of a refusal in any of the three styles (Google's body has no code: its message names it). */
function expectRefusal(route: Route, reply: { status: number; body: any }, code: 'missing_api_key' | 'invalid_api_key') {
  expect(reply.status).toBe(401);
  if (route.family === 'chat-completions') expect(reply.body.error).toMatchObject({ type: 'invalid_request_error', code });
  if (route.family === 'messages') expect(reply.body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  if (route.family === 'generate-content') expect(reply.body.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
  const message = code === 'missing_api_key' ? /^No API key provided/ : /^Incorrect API key provided/;
  expect((reply.body.error as { message: string }).message).toMatch(message);
  expect(gw.sims.openai.received.length + gw.sims.anthropic.received.length + gw.sims.gemini.received.length).toBe(0);
}

/** How each credential is presented, and the route families it opens. */
const CREDENTIALS: { name: string; opens: Family[]; present: (key: string) => { headers: Record<string, string>; query?: string } }[] = [
  { name: 'Authorization: Bearer', opens: ['chat-completions', 'messages', 'generate-content'], present: (key) => ({ headers: { authorization: `Bearer ${key}` } }) },
  { name: 'Authorization: bearer (lower case)', opens: ['chat-completions', 'messages', 'generate-content'], present: (key) => ({ headers: { authorization: `bearer ${key}` } }) },
  { name: 'x-api-key', opens: ['messages'], present: (key) => ({ headers: { 'x-api-key': key } }) },
  { name: 'x-api-key with anthropic-version', opens: ['chat-completions', 'messages', 'generate-content'], present: (key) => ({ headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' } }) },
  { name: 'x-goog-api-key', opens: ['generate-content'], present: (key) => ({ headers: { 'x-goog-api-key': key } }) },
  { name: 'x-goog-api-key with anthropic-version', opens: ['generate-content'], present: (key) => ({ headers: { 'x-goog-api-key': key, 'anthropic-version': '2023-06-01' } }) },
  { name: '?key=', opens: ['generate-content'], present: (key) => ({ headers: {}, query: `?key=${key}` }) },
];

const ROWS = CREDENTIALS.flatMap((credential) => ROUTES.map((route) => ({ credential, route, opens: credential.opens.includes(route.family) })));

describe('which credential opens which route', () => {
  it.each(ROWS.filter((row) => !row.opens).map((row) => [row.credential.name, row.route.method, row.route.path, row]))(
    '%s does not open %s %s: 401 missing_api_key',
    async (_name, _method, _path, { credential, route }) => {
      const { headers, query } = credential.present(gw.key);
      expectRefusal(route, await send(route, headers, query), 'missing_api_key');
    },
  );

  it.each(ROWS.filter((row) => row.opens).map((row) => [row.credential.name, row.route.method, row.route.path, row]))(
    '%s opens %s %s, and a wrong key there is 401 invalid_api_key',
    async (_name, _method, _path, { credential, route }) => {
      const good = credential.present(gw.key);
      expect((await send(route, good.headers, good.query)).status).toBe(200);
      for (const sim of [gw.sims.openai, gw.sims.anthropic, gw.sims.gemini]) sim.reset();
      const wrong = credential.present('sk-not-a-gateway-key');
      expectRefusal(route, await send(route, wrong.headers, wrong.query), 'invalid_api_key');
    },
  );
});

describe('credentials that are not keys', () => {
  it.each(ROUTES.map((route) => [route.method, route.path, route]))('%s %s refuses no key, an empty key and another scheme as missing', async (_m, _p, route) => {
    expectRefusal(route, await send(route, {}), 'missing_api_key');
    expectRefusal(route, await send(route, { authorization: 'Bearer' }), 'missing_api_key');
    expectRefusal(route, await send(route, { authorization: `Basic ${gw.key}` }), 'missing_api_key');
    expectRefusal(route, await send(route, { 'x-api-key': '', 'anthropic-version': '2023-06-01' }), 'missing_api_key');
  });

  it('an empty x-goog-api-key leaves ?key= to decide', async () => {
    const route = ROUTES[4];
    expect((await send(route, { 'x-goog-api-key': '' }, `?key=${gw.key}`)).status).toBe(200);
    gw.sims.gemini.reset();
    expectRefusal(route, await send(route, { 'x-goog-api-key': '' }), 'missing_api_key');
  });
});
