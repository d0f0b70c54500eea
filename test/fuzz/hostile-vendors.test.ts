import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Operation, Protocol } from '../../src/config/types.ts';
import { HOSTILE_MODES } from '../helpers/hostile-vendor.ts';
import { arbitraryAuth, presentKey } from './arbitraries.ts';
import { describeBody } from './arbitraries-bodies.ts';
import { describeCase } from './arbitraries-requests.ts';
import { getHostileModel, startFuzzGateway, type FuzzGateway } from './fuzz-gateway.ts';
import { getFuzzTimeout, runFuzz } from './fuzz-run.ts';
import { formatHead } from './raw-http.ts';
import { runHttpCase } from './run-case.ts';

const RUNS = 40;
const CHAT_OPS: Operation[] = ['chat', 'messages', 'generate-content', 'stream-generate-content', 'responses', 'completions', 'embeddings'];

describe('fuzz: hostile vendors (garbage, echoed credentials, cut streams, hangs)', () => {
  let fuzz: FuzzGateway;
  beforeAll(async () => {
    fuzz = await startFuzzGateway();
  });
  afterAll(() => fuzz.close());

  it(
    'answers every style with a well-formed error or stream error, never relays a gateway secret, and frees every slot when the vendor misbehaves',
    async () => {
      const cases = fc
        .record({
          op: fc.constantFrom<Operation>(...CHAT_OPS, 'images-generations'),
          protocol: fc.constantFrom<Protocol>('openai', 'anthropic', 'gemini'),
          mode: fc.constantFrom(...HOSTILE_MODES),
          stream: fc.boolean(),
        })
        .chain((c) => {
          const route = fuzz.config.routes.find((r) => r.op === c.op)!;
          return arbitraryAuth(route.style, ['bearer', 'x-api-key', 'x-goog-api-key', 'query']).map((auth) => ({ ...c, route, auth }));
        })
        .map(({ op, protocol, mode, stream, route, auth }) => {
          const model = getHostileModel(op === 'images-generations' ? 'dashscope' : protocol, mode);
          const key = presentKey(auth);
          const path = route.path.replace('{model}', model) + (key.query ? `?${key.query}` : '') + (op === 'stream-generate-content' && key.query ? '&alt=sse' : '');
          const body = Buffer.from(JSON.stringify(describeBody(op, model, stream)));
          const headers: [string, string][] = [['host', 'fuzz.test'], ['connection', 'close'], ...key.headers, ['content-type', 'application/json'], ['content-length', String(body.length)]];
          return describeCase({ head: formatHead('POST', path, headers), body }, { style: route.style });
        });
      await runFuzz('hostile vendors', cases, (c) => runHttpCase(fuzz, c.request, c.expect), RUNS);
    },
    getFuzzTimeout(RUNS, 400),
  );
});
