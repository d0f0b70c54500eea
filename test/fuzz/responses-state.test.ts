import fc from 'fast-check';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { stringify, parse } from 'yaml';
import { compileConfigText } from '../../src/config/index.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';
import { getFuzzTimeout, runFuzz } from './fuzz-run.ts';

const RUNS = 60;
const ERROR_CODES = new Set(['response_not_found', 'item_not_found', 'invalid_request']);

/** Any JSON value, strings favoured (ids), with hostile text. */
const arbitraryId = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.constantFrom('resp_x', '', '../../x', 'a:b', '%2F', '\u0000', 'é😀', 'x'.repeat(5000)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

/** Checks a stored-state answer: 2xx, or a 400/404 in the OpenAI error shape with a known code; never 5xx. */
function checkAnswer(status: number, body: any): string[] {
  if (status >= 200 && status < 300) return [];
  if (status !== 400 && status !== 404) return [`status ${status}: ${JSON.stringify(body).slice(0, 300)}`];
  if (typeof body?.error?.message !== 'string' || !ERROR_CODES.has(body.error.code)) return [`bad error body ${JSON.stringify(body).slice(0, 300)}`];
  return [];
}

describe('fuzz: Responses state inputs', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    // No default limits: `npm run fuzz` sends ten times the cases, past the 600 requests a minute of gateway.yaml.
    gw = await startTestGateway((config) => ({ ...config, server: { ...config.server, defaultLimits: {} } }));
  });
  afterAll(() => gw.close());

  const post = async (body: unknown) => {
    const response = await fetch(`${gw.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    // A stream (a request the gateway serves) is text; everything else here is JSON.
    const text = await response.text();
    return { status: response.status, body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };

  it(
    'previous_response_id and item_reference of any value: 400 or 404 in the OpenAI shape before any vendor call, never 5xx',
    async () => {
      const cases = fc.record({
        previous: fc.option(arbitraryId, { nil: undefined }),
        references: fc.array(fc.oneof(fc.record({ type: fc.constant('item_reference'), id: arbitraryId }), fc.jsonValue({ maxDepth: 2 })), { maxLength: 4 }),
        stream: fc.boolean(),
      });
      await runFuzz('responses-state-inputs', cases, async (c) => {
        gw.sims.anthropic.reset();
        const input = [{ role: 'user', content: 'hi' }, ...c.references];
        const { status, body } = await post({ model: 'sim-anthropic-chat', input, previous_response_id: c.previous, stream: c.stream });
        const problems = status === 200 ? [] : checkAnswer(status, body);
        if (status >= 400 && gw.sims.anthropic.received.length > 0) problems.push(`vendor called for a ${status}`);
        return problems;
      }, RUNS);
    },
    getFuzzTimeout(RUNS, 150),
  );

  it(
    'GET, DELETE and input_items of any id and query: 404 or 400 in the OpenAI shape, never 5xx',
    async () => {
      const cases = fc.record({
        id: fc.string({ minLength: 1, maxLength: 60 }),
        method: fc.constantFrom('GET', 'DELETE', 'ITEMS'),
        query: fc.dictionary(fc.constantFrom('limit', 'order', 'after', 'include'), fc.string({ maxLength: 12 }), { maxKeys: 3 }),
      });
      await runFuzz('responses-state-reads', cases, async (c) => {
        const path = `/v1/responses/${encodeURIComponent(c.id)}${c.method === 'ITEMS' ? '/input_items' : ''}?${new URLSearchParams(c.query)}`;
        const response = await fetch(gw.url + path, { method: c.method === 'DELETE' ? 'DELETE' : 'GET', headers: { authorization: `Bearer ${gw.key}` } });
        const body = await response.json();
        // A path the route table does not match (an encoded '/') is the table's own 404.
        if (response.status === 404 && body.error?.code === 'route_not_found') return [];
        return checkAnswer(response.status, body);
      }, RUNS);
    },
    getFuzzTimeout(RUNS, 50),
  );

  it('YAML responses fields of any value: the config compiles or is refused with a problem, never throws', async () => {
    const base = parse(await readFile('gateway.yaml', 'utf8'));
    const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('30d', '1h', '0s', '1mb', '64kb', '10x', true, false));
    const cases = fc.record({
      server: fc.option(fc.dictionary(fc.constantFrom('ttl', 'max_size', 'other'), anyValue, { maxKeys: 2 }), { nil: undefined }),
      key: fc.option(fc.oneof(fc.dictionary(fc.constantFrom('store', 'other'), anyValue, { maxKeys: 2 }), anyValue), { nil: undefined }),
      model: fc.option(fc.oneof(fc.dictionary(fc.constantFrom('store', 'other'), anyValue, { maxKeys: 2 }), anyValue), { nil: undefined }),
    });
    await runFuzz('responses-state-yaml', cases, async (c) => {
      const raw = structuredClone(base);
      if (c.server !== undefined) raw.server.responses = c.server;
      if (c.key !== undefined) raw.keys[0].responses = c.key;
      if (c.model !== undefined) raw.models['gpt-4o'].responses = c.model;
      const { config, problems } = await compileConfigText(stringify(raw));
      if (!config && problems.length === 0) return ['neither a config nor a problem'];
      if (config && (!(config.server.responses.ttlMs >= 0) || !(config.server.responses.maxBytes >= 0))) return ['bad compiled responses settings'];
      return [];
    }, RUNS);
  }, 60_000);
});
