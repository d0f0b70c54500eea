import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Operation } from '../../src/config/types.ts';
import { arbitraryAuth, presentKey } from './arbitraries.ts';
import { arbitraryBedrockAnswer } from './arbitraries-bedrock.ts';
import { describeBody } from './arbitraries-bodies.ts';
import { SCRIPTED_BEDROCK_MODELS, startFuzzGateway, type FuzzGateway } from './fuzz-gateway.ts';
import { getFuzzTimeout, runFuzz } from './fuzz-run.ts';
import { formatHead } from './raw-http.ts';
import { runHttpCase } from './run-case.ts';

const RUNS = 60;
const OPS: Operation[] = ['chat', 'messages', 'generate-content', 'stream-generate-content', 'responses'];

describe('fuzz: hostile Bedrock (corrupt event streams, odd Converse JSON, error answers quoting credentials)', () => {
  let fuzz: FuzzGateway;
  beforeAll(async () => {
    fuzz = await startFuzzGateway();
  });
  afterAll(() => fuzz.close());

  it(
    'answers every style with a well-formed answer or an error in its own style, never shows a Bedrock credential, and survives',
    async () => {
      const credentials = Object.entries(fuzz.secrets).filter(([name]) => name.includes('BEDROCK')).map(([, value]) => value);
      const cases = fc
        .record({ op: fc.constantFrom(...OPS), signed: fc.boolean(), stream: fc.boolean(), answer: arbitraryBedrockAnswer(credentials) })
        .chain((c) => {
          const route = fuzz.config.routes.find((r) => r.op === c.op)!;
          return arbitraryAuth(route.style, ['bearer', 'x-api-key', 'x-goog-api-key']).map((auth) => ({ ...c, route, auth }));
        });
      await runFuzz(
        'hostile bedrock',
        cases,
        async (c) => {
          const model = c.signed ? SCRIPTED_BEDROCK_MODELS.signed : SCRIPTED_BEDROCK_MODELS.key;
          const key = presentKey(c.auth);
          const path = c.route.path.replace('{model}', model) + (c.op === 'stream-generate-content' ? '?alt=sse' : '');
          const body = Buffer.from(JSON.stringify(describeBody(c.op, model, c.stream)));
          const headers: [string, string][] = [['host', 'fuzz.test'], ['connection', 'close'], ...key.headers, ['content-type', 'application/json'], ['content-length', String(body.length)]];
          fuzz.bedrock.script(c.answer);
          // A 200 stream whose messages name an exception: the vendor records it, so the check knows the 4xx is the vendor's.
          return runHttpCase(fuzz, { head: formatHead('POST', path, headers), body }, { style: c.route.style });
        },
        RUNS,
      );
    },
    getFuzzTimeout(RUNS, 400),
  );
});
