import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { OPS_SECRET, TEAM_SECRET, startConsoleGateway, type ConsoleGateway } from '../helpers/start-console-gateway.ts';
import { getFuzzTimeout, runFuzz } from './fuzz-run.ts';

const RUNS = 80;
const PATHS = ['/admin/keys/limits', '/admin/keys/disable', '/admin/keys/enable', '/admin/keys/issue', '/admin/playground'];

/** JSON a hostile (or careless) console user sends in place of the right value. */
const arbitraryOdd = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, -1, 0, 1e308, 2 ** 53 + 1, '', 'team', 'ops', 'nobody', '__proto__', 'constructor', [], {}, ['*'], ['gpt-*', 5], { rpm: -1 }, { rpm: 1e308 }, { usd: 'x' }, { __proto__: { rpm: 1 } }),
);

/** A console body: the fields the routes read (name, limits, budget, models, key, model, style, stream, prompt) with odd values, or any JSON. */
const arbitraryBody = fc.oneof(
  { weight: 5, arbitrary: fc.record(
    {
      name: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('team', 'team', 'ops', 'nobody', 'new-key', '', 'a\r\nb', '温度', '../x') }, { weight: 1, arbitrary: arbitraryOdd }),
      limits: fc.oneof(fc.record({ rpm: arbitraryOdd, tpm: arbitraryOdd, concurrency: arbitraryOdd }, { requiredKeys: [] }), arbitraryOdd),
      budget: fc.oneof(fc.record({ usd: arbitraryOdd, period: arbitraryOdd }, { requiredKeys: [] }), arbitraryOdd),
      models: fc.oneof(fc.array(fc.constantFrom('*', 'gpt-*', 'sim-openai-chat', '', '[', '**')), arbitraryOdd),
      key: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('team', 'ops', 'nobody') }, { weight: 1, arbitrary: arbitraryOdd }),
      model: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('sim-openai-chat', 'gpt-4o', 'nope') }, { weight: 1, arbitrary: arbitraryOdd }),
      style: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('openai', 'anthropic', 'gemini', 'wizard') }, { weight: 1, arbitrary: arbitraryOdd }),
      stream: arbitraryOdd,
      prompt: fc.oneof(fc.string({ maxLength: 20 }), arbitraryOdd),
    },
    { requiredKeys: ['name'] },
  ).map((body) => JSON.stringify(body)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.constantFrom('', '{', 'null', '[]', '"x"', '{"name":', '{"__proto__":{"admin":true},"name":"team"}', `${'['.repeat(5000)}${']'.repeat(5000)}`, `{"name":"team","limits":{"rpm":${'9'.repeat(400)}}}`) },
);

describe('fuzz: console API bodies (keys/limits, disable, enable, issue, playground)', () => {
  let gw: ConsoleGateway;
  beforeAll(async () => {
    gw = await startConsoleGateway();
  });
  afterAll(() => gw.close());

  it(
    'answers every hostile body with a 2xx or a 4xx {error:{code,message}}, logs no client secret, and keeps serving',
    async () => {
      const cases = fc.record({ path: fc.constantFrom(...PATHS), body: arbitraryBody, type: fc.constantFrom('application/json', 'text/plain', '') });
      await runFuzz(
        'console api',
        cases,
        async ({ path, body, type }) => {
          const problems: string[] = [];
          const logged = gw.logs.length;
          const headers: Record<string, string> = { authorization: `Bearer ${OPS_SECRET}` };
          if (type) headers['content-type'] = type;
          const answer = await fetch(gw.adminUrl + path, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) }).catch((error: Error) => error);
          if (answer instanceof Error) return [`no answer: ${answer.message}`];
          const text = await answer.text();
          if (process.env.FUZZ_DEBUG) console.log(`[fuzz] ${answer.status} ${path} ${text.slice(0, 100)}`);
          if (answer.status >= 500) problems.push(`${answer.status} for a client mistake: ${text.slice(0, 200)}`);
          if (answer.status >= 400) {
            let json: any;
            try {
              json = JSON.parse(text);
            } catch {
              problems.push(`${answer.status} body is not JSON: ${text.slice(0, 120)}`);
            }
            if (json && (typeof json.error?.code !== 'string' || typeof json.error?.message !== 'string')) problems.push(`${answer.status} not {error:{code,message}}: ${text.slice(0, 200)}`);
          }
          const logs = JSON.stringify(gw.logs.slice(logged));
          for (const [name, secret] of [['admin key', OPS_SECRET], ['team key', TEAM_SECRET]]) if (logs.includes(secret) || (path !== '/admin/playground' && text.includes(secret))) problems.push(`${name} shown: ${logs.includes(secret) ? 'log' : 'answer'}`);
          const keys = await gw.callAdmin('/admin/keys');
          if (keys.status !== 200) problems.push(`GET /admin/keys answers ${keys.status} afterwards: ${keys.text.slice(0, 200)}`);
          const health = await fetch(`${gw.url}/healthz`);
          if (health.status !== 200) problems.push(`/healthz answers ${health.status} afterwards`);
          await gw.callAdmin('/admin/overrides/clear', { body: {} });
          return problems;
        },
        RUNS,
      );
    },
    getFuzzTimeout(RUNS, 150),
  );
});
