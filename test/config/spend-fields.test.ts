import { describe, expect, it } from 'vitest';
import { compileConfigText, formatProblem } from '../../src/config/index.ts';

const BASE = `server: { limit_window: 90s, budget_file: budgets/spend.json }
keys:
  - { name: team, key: env:TEAM_KEY, models: ["*"], budget: { usd: 25.5, period: month, reserve_usd: 0.5 } }
vendors:
  openai: { protocol: openai, base_url: https://api.openai.com/v1, auth: { bearer: env:OPENAI_API_KEY } }
models:
  gpt-4o: { vendor: openai, price: { input: 2.5, output: 10, cached_input: 1.25, cache_write: 3, reasoning: 12, image: 0.04, audio_second: 0.0001 } }
  gpt-4o-mini: { vendor: openai }
routes:
  - { method: POST, path: /v1/chat/completions, style: openai, op: chat, model: body.model, schema: chat-completions }
`;

async function problemsOf(text: string): Promise<string[]> {
  const { problems } = await compileConfigText(text, 'test.yaml');
  return problems.map(formatProblem);
}

describe('prices, budgets and the limit window in gateway.yaml', () => {
  it('compile to the runtime tables', async () => {
    const { config, problems } = await compileConfigText(BASE);
    expect(problems).toEqual([]);
    expect(config!.models['gpt-4o'].price).toEqual({ input: 2.5, output: 10, cachedInput: 1.25, cacheWrite: 3, reasoning: 12, image: 0.04, audioSecond: 0.0001 });
    expect(config!.models['gpt-4o-mini']).not.toHaveProperty('price');
    expect(config!.keys[0].budget).toEqual({ usd: 25.5, period: 'month', reserveUsd: 0.5 });
    expect(config!.server).toMatchObject({ limitWindowMs: 90_000, budgetFile: 'budgets/spend.json' });
  });

  it('default to a one-minute window and .gateway-budgets.json', async () => {
    const { config } = await compileConfigText(BASE.replace('server: { limit_window: 90s, budget_file: budgets/spend.json }\n', ''));
    expect(config!.server).toMatchObject({ limitWindowMs: 60_000, budgetFile: '.gateway-budgets.json' });
    expect(config!.keys[0].budget?.period).toBe('month');
  });

  it.each([
    ['a negative price', BASE.replace('input: 2.5', 'input: -1'), /^test\.yaml:7:\d+: models\.gpt-4o\.price\.input: must be >= 0$/],
    ['a price without output', BASE.replace('output: 10, ', ''), /^test\.yaml:7:\d+: models\.gpt-4o\.price: missing required field "output"$/],
    ['an unknown rate', BASE.replace('image: 0.04', 'images: 0.04'), /^test\.yaml:7:\d+: models\.gpt-4o\.price\.images: unknown field "images"$/],
    ['a zero budget', BASE.replace('usd: 25.5', 'usd: 0'), /^test\.yaml:3:\d+: keys\.0\.budget\.usd: must be > 0$/],
    ['a weekly budget', BASE.replace('period: month', 'period: week'), /^test\.yaml:3:\d+: keys\.0\.budget\.period: must be one of: day, month$/],
    ['a budget over a million USD', BASE.replace('usd: 25.5', 'usd: 2000000'), /^test\.yaml:3:\d+: keys\.0\.budget\.usd: must be <= 1000000$/],
    ['an empty window', BASE.replace('limit_window: 90s', 'limit_window: 0ms'), /^test\.yaml:1:\d+: server\.limit_window: must be longer than 0$/],
  ])('refuse %s at its place', async (_name, text, expected) => {
    const problems = await problemsOf(text);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(expected);
  });
});
