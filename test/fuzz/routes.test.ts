import { afterAll, beforeAll, describe, it } from 'vitest';
import { arbitraryRouteCase } from './arbitraries-requests.ts';
import { startFuzzGateway, type FuzzGateway } from './fuzz-gateway.ts';
import { getFuzzTimeout, runFuzz } from './fuzz-run.ts';
import { runHttpCase } from './run-case.ts';

const RUNS = 120;

describe('fuzz: every route of the table x every auth style', () => {
  let fuzz: FuzzGateway;
  beforeAll(async () => {
    fuzz = await startFuzzGateway();
  });
  afterAll(() => fuzz.close());

  it(
    'answers plausible, mutated and random bodies in the caller style with x-request-id, deciding its own 4xx before any vendor, leaking no secret and staying up',
    async () => {
      const cases = arbitraryRouteCase(fuzz.config, { bodies: ['plausible', 'mutated', 'random-json', 'not-json', 'empty'] });
      await runFuzz('routes', cases, (c) => runHttpCase(fuzz, c.request, c.expect), RUNS);
    },
    getFuzzTimeout(RUNS, 150),
  );
});
