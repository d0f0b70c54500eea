import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Operation } from '../../src/config/types.ts';
import { arbitraryAuth, presentKey } from './arbitraries.ts';
import { arbitraryMutation, describeBody } from './arbitraries-bodies.ts';
import { describeCase } from './arbitraries-requests.ts';
import { startFuzzGateway, type FuzzGateway } from './fuzz-gateway.ts';
import { loadTokenizer } from '../../src/spend/count-text-tokens.ts';
import { getFuzzTimeout, runFuzz } from './fuzz-run.ts';
import { formatHead } from './raw-http.ts';
import { runHttpCase } from './run-case.ts';

const RUNS = 100;
const OPS: Operation[] = ['chat', 'messages', 'generate-content', 'stream-generate-content', 'responses', 'completions', 'count-tokens'];
/** One simulated chat model per vendor protocol: most pairs with an op above need translation. */
const MODELS = ['sim-openai-chat', 'gpt-4o-mini', 'claude-sonnet-4-6', 'gemini-2.5-flash', 'qwen-plus'];

describe('fuzz: translated chat requests', () => {
  let fuzz: FuzzGateway;
  beforeAll(async () => {
    fuzz = await startFuzzGateway();
    // count_tokens on a vendor without a counting endpoint loads the tokenizer at its first use: done
    // here, so that the first such case is not held by the load on a busy machine.
    await loadTokenizer();
  });
  afterAll(() => fuzz.close());

  it(
    'answers wrong types, unknown (non-Latin-1, CR/LF) fields and bad roles in any style to a model of any protocol with a 4xx or a success, never a 5xx after the vendor answered',
    async () => {
      const cases = fc
        .record({ op: fc.constantFrom(...OPS), model: fc.constantFrom(...MODELS.filter((id) => id in fuzz.config.models)), stream: fc.boolean() })
        .chain(({ op, model, stream }) => {
          const route = fuzz.config.routes.find((r) => r.op === op)!;
          const body = describeBody(op, model, stream);
          return fc.record({ route: fc.constant(route), model: fc.constant(model), auth: arbitraryAuth(route.style, ['bearer', 'x-api-key', 'x-goog-api-key', 'query']), body: fc.oneof(fc.constant(body), arbitraryMutation(body)) });
        })
        .map(({ route, model, auth, body }) => {
          const key = presentKey(auth);
          const query = [...(key.query ? [key.query] : []), ...(route.op === 'stream-generate-content' ? ['alt=sse'] : [])];
          const path = route.path.replace('{model}', model) + (query.length ? `?${query.join('&')}` : '');
          const bytes = Buffer.from(JSON.stringify(body));
          const headers: [string, string][] = [['host', 'fuzz.test'], ['connection', 'close'], ...key.headers, ['content-type', 'application/json'], ['content-length', String(bytes.length)]];
          return describeCase({ head: formatHead('POST', path, headers), body: bytes }, { style: route.style });
        });
      await runFuzz('translated requests', cases, (c) => runHttpCase(fuzz, c.request, c.expect), RUNS);
    },
    getFuzzTimeout(RUNS, 100),
  );
});
