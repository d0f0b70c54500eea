import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Operation } from '../../src/config/types.ts';
import { arbitraryAuth, presentKey } from './arbitraries.ts';
import { describeBody } from './arbitraries-bodies.ts';
import { arbitraryAnswerDamage, defineAnswerScript, type ScriptedJsonProtocol } from './arbitraries-vendor-answers.ts';
import { SCRIPTED_MODELS, startFuzzGateway, type FuzzGateway } from './fuzz-gateway.ts';
import { getFuzzTimeout, runFuzz } from './fuzz-run.ts';
import { formatHead } from './raw-http.ts';
import { runHttpCase } from './run-case.ts';

const RUNS = 80;
const OPS: Operation[] = ['chat', 'messages', 'generate-content', 'stream-generate-content', 'responses', 'completions'];

describe('fuzz: vendor answers of odd shape (OpenAI, Anthropic, Gemini)', () => {
  let fuzz: FuzzGateway;
  beforeAll(async () => {
    fuzz = await startFuzzGateway();
  });
  afterAll(() => fuzz.close());

  it(
    'answers a verified answer with odd values, missing fields, dropped or repeated events and cut streams with a well-formed answer or error in the caller\'s style, never an internal error',
    async () => {
      const cases = fc
        .record({ op: fc.constantFrom(...OPS), protocol: fc.constantFrom<ScriptedJsonProtocol>('openai', 'anthropic', 'gemini'), stream: fc.boolean(), damage: arbitraryAnswerDamage })
        .chain((c) => {
          const route = fuzz.config.routes.find((r) => r.op === c.op)!;
          return arbitraryAuth(route.style, ['bearer', 'x-api-key', 'x-goog-api-key']).map((auth) => ({ ...c, route, auth }));
        });
      await runFuzz(
        'odd vendor answers',
        cases,
        async (c) => {
          const model = SCRIPTED_MODELS[c.protocol];
          const key = presentKey(c.auth);
          const path = c.route.path.replace('{model}', model) + (c.op === 'stream-generate-content' ? '?alt=sse' : '');
          const body = Buffer.from(JSON.stringify(describeBody(c.op, model, c.stream)));
          const headers: [string, string][] = [['host', 'fuzz.test'], ['connection', 'close'], ...key.headers, ['content-type', 'application/json'], ['content-length', String(body.length)]];
          fuzz.scripted.script(defineAnswerScript(c.protocol, c.damage));
          return runHttpCase(fuzz, { head: formatHead('POST', path, headers), body }, { style: c.route.style });
        },
        RUNS,
      );
    },
    getFuzzTimeout(RUNS, 400),
  );
});
