import fc from 'fast-check';
import { describe, it } from 'vitest';
import { stringify } from 'yaml';
import { compileConfigText, formatProblem } from '../../src/config/index.ts';
import { estimateReservation } from '../../src/spend/estimate-reservation.ts';
import { getCost } from '../../src/spend/get-cost.ts';
import { getFuzzTimeout, runFuzz } from './fuzz-run.ts';

/**
 * The YAML fields of spend and budgets (`models.*.price`, `keys[].budget`, `server.limit_window`,
 * `server.budget_file`) through the checker `gateway check` runs: anything is either refused with a
 * problem at its field, or compiled into values every consumer can use (finite, in range, priced).
 */
const RUNS = 300;

const junk = fc.oneof(fc.string({ maxLength: 12 }), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }));
const usd = fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.integer({ min: -5, max: 2e6 }), fc.constantFrom(0, 1e6, 1e6 + 1, -0.0001), junk);
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 3 });

const price = fc.record(
  { input: usd, output: usd, cached_input: usd, cache_write: usd, reasoning: usd, image: usd, audio_second: usd, extra: junk },
  { requiredKeys: [] },
);
const budget = fc.record(
  { usd, period: fc.oneof(fc.constantFrom('day', 'month', 'week', 'Day'), junk), reserve_usd: usd, extra: junk },
  { requiredKeys: [] },
);
const duration = fc.oneof(fc.constantFrom('0ms', '0s', '1ms', '500ms', '60s', '2m', '1h', '10', 's', '-1s', '1.5s'), junk);
const cases = fc.record({
  price: maybe(fc.oneof(price, junk)),
  budget: maybe(fc.oneof(budget, junk)),
  limitWindow: maybe(duration),
  budgetFile: maybe(fc.oneof(fc.string({ maxLength: 20 }), junk)),
});

function writeYaml(value: typeof cases extends fc.Arbitrary<infer T> ? T : never): string {
  const strip = (o: unknown) => JSON.parse(JSON.stringify(o ?? null));
  const server: Record<string, unknown> = {};
  if (value.limitWindow !== undefined) server.limit_window = strip(value.limitWindow);
  if (value.budgetFile !== undefined) server.budget_file = strip(value.budgetFile);
  const model: Record<string, unknown> = { vendor: 'openai' };
  if (value.price !== undefined) model.price = strip(value.price);
  const key: Record<string, unknown> = { name: 'team', key: 'env:TEAM_KEY', models: ['*'] };
  if (value.budget !== undefined) key.budget = strip(value.budget);
  return stringify({
    server,
    keys: [key],
    vendors: { openai: { protocol: 'openai', base_url: 'https://api.openai.com/v1', auth: { bearer: 'env:OPENAI_API_KEY' } } },
    models: { 'gpt-4o': model },
    routes: [{ method: 'POST', path: '/v1/chat/completions', style: 'openai', op: 'chat', model: 'body.model', schema: 'chat-completions' }],
  });
}

const isUsd = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1e6;

describe('spend and budget fields of gateway.yaml', () => {
  it('are refused at their field or compiled into usable values', { timeout: getFuzzTimeout(RUNS, 40) }, async () => {
    await runFuzz(
      'spend config',
      cases,
      async (value) => {
        const broken: string[] = [];
        let result;
        try {
          result = await compileConfigText(writeYaml(value), 'fuzz.yaml');
        } catch (error) {
          return [`the checker threw: ${(error as Error).message}`];
        }
        const { config, problems } = result;
        for (const problem of problems) {
          const line = formatProblem(problem);
          if (!/^fuzz\.yaml:\d+:\d+: (server|keys|models)\b/.test(line)) broken.push(`problem not placed at a field: ${line}`);
        }
        if (!config) return problems.length ? broken : ['no config and no problem'];
        const compiled = config.models['gpt-4o'].price;
        if (compiled) {
          for (const [name, rate] of Object.entries(compiled)) if (!isUsd(rate)) broken.push(`price ${name} accepted as ${rate}`);
          const cost = getCost({ inputTokens: 1e6, outputTokens: 1e6, cachedTokens: 5e5, reasoningTokens: 5e5, images: 2, audioSeconds: 3 } as never, compiled);
          if (!(cost! >= 0 && Number.isFinite(cost))) broken.push(`cost ${cost}`);
          const bound = estimateReservation('chat', config.models['gpt-4o'], { max_tokens: 100 }, 400);
          if (!(bound.costUsd >= 0 && Number.isFinite(bound.costUsd))) broken.push(`reservation ${bound.costUsd}`);
        } else if (value.price !== undefined) broken.push('a price was given and neither refused nor compiled');
        const keyBudget = config.keys[0].budget;
        if (keyBudget) {
          if (!(isUsd(keyBudget.usd) && keyBudget.usd > 0)) broken.push(`budget usd accepted as ${keyBudget.usd}`);
          if (keyBudget.period !== 'day' && keyBudget.period !== 'month') broken.push(`period accepted as ${keyBudget.period}`);
          if (keyBudget.reserveUsd !== undefined && !(keyBudget.reserveUsd > 0 && isUsd(keyBudget.reserveUsd))) broken.push(`reserve_usd ${keyBudget.reserveUsd}`);
        } else if (value.budget !== undefined) broken.push('a budget was given and neither refused nor compiled');
        const window = config.server.limitWindowMs;
        if (!(Number.isSafeInteger(window) && window >= 1)) broken.push(`limit window ${window}`);
        if (typeof config.server.budgetFile !== 'string' || config.server.budgetFile.length === 0) broken.push(`budget file ${config.server.budgetFile}`);
        return broken;
      },
      RUNS,
    );
  });
});
