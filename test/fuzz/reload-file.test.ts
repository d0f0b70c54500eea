import fc from 'fast-check';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { createCompileWorker } from '../../src/reload/compile-in-worker.ts';
import { createReloader, type Reloader } from '../../src/reload/create-reloader.ts';
import { simulateVendors } from '../../src/simulate.ts';
import { sendChat } from '../helpers/send-chat.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';
import { getFuzzTimeout, runFuzz } from './fuzz-run.ts';

const RUNS = 30;

/** A config file as a reload may find it: gateway.yaml with lines replaced, inserted or cut, or bytes that are not YAML. */
function arbitraryConfigText(base: string): fc.Arbitrary<string | Uint8Array> {
  const lines = base.split('\n');
  const line = fc.nat({ max: lines.length - 1 });
  const junk = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('  - [', 'models: ~', '&a [*a]', '  vendor: "', '\t', 'keys: 3', '\u0000'));
  return fc.oneof(
    fc.tuple(line, junk).map(([at, text]) => lines.map((l, i) => (i === at ? text : l)).join('\n')),
    fc.tuple(line, junk).map(([at, text]) => [...lines.slice(0, at), text, ...lines.slice(at)].join('\n')),
    fc.nat({ max: base.length }).map((at) => base.slice(0, at)),
    fc.uint8Array({ maxLength: 200 }),
  );
}

/** Fuzz: whatever the file holds at a reload, the reload answers and the gateway keeps serving. */
describe('fuzz: the config file a reload reads', () => {
  let gw: TestGateway;
  let dir: string;
  let file: string;
  let base: string;
  let reloader: Reloader;
  const worker = createCompileWorker();
  beforeAll(async () => {
    gw = await startTestGateway();
    dir = await mkdtemp(join(tmpdir(), 'fuzz-reload-'));
    file = join(dir, 'gateway.yaml');
    base = await readFile('gateway.yaml', 'utf8');
    reloader = createReloader({
      file,
      logger: createLogger('silent'),
      apply: async (compiled) => {
        const next = await simulateVendors(compiled, {}, { running: gw.sims });
        return gw.gateway.reload(next.config, { env: next.env });
      },
      getGeneration: () => gw.gateway.getSnapshot().generation,
      compile: worker.compile,
    });
  });
  afterAll(async () => {
    await worker.close();
    await gw?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it(
    'never throws: a clean file serves as the next generation, any other keeps the generation and names file:line:col or the file',
    async () => {
      await runFuzz(
        'reload-file',
        arbitraryConfigText(base),
        async (text) => {
          const broken: string[] = [];
          await writeFile(file, text);
          const before = gw.gateway.getSnapshot().generation;
          const result = await reloader.reload('fuzz');
          const after = gw.gateway.getSnapshot().generation;
          if (result.outcome === 'ok' && (after !== before + 1 || result.generation !== after)) broken.push(`ok but generation ${before} -> ${after}`);
          if (result.outcome === 'failed') {
            if (after !== before || result.generation !== before) broken.push(`failed but generation ${before} -> ${after}`);
            if (result.problems.length === 0) broken.push('failed without a problem');
            for (const problem of result.problems) if (!problem.startsWith(`${file}:`)) broken.push(`problem not naming the file: ${problem}`);
          }
          // The gateway still answers (a clean mutation may have removed the model: any answer but a 5xx).
          const reply = await sendChat(gw.url, { key: gw.key, model: 'gpt-4o-mini' });
          if (reply.status >= 500) broken.push(`chat answered ${reply.status} after the reload`);
          return broken;
        },
        RUNS,
      );
    },
    getFuzzTimeout(RUNS, 400),
  );
});
