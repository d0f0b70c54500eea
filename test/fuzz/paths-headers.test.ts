import { afterAll, beforeAll, describe, it } from 'vitest';
import { arbitraryHeadMutation, arbitraryHostileTarget } from './arbitraries-hostile.ts';
import { arbitraryRouteCase } from './arbitraries-requests.ts';
import { startFuzzGateway, type FuzzGateway } from './fuzz-gateway.ts';
import { getFuzzTimeout, runFuzz } from './fuzz-run.ts';
import { runHttpCase } from './run-case.ts';

const PATH_RUNS = 60;
const HEADER_RUNS = 60;

// Answers to requests Node's HTTP parser refuses cannot know the route: any style's error shape will do there.
describe('fuzz: hostile paths and headers over raw sockets', () => {
  let fuzz: FuzzGateway;
  beforeAll(async () => {
    fuzz = await startFuzzGateway();
  });
  afterAll(() => fuzz.close());

  const sane = () => {
    const postRoutes = { ...fuzz.config, routes: fuzz.config.routes.filter((route) => route.method === 'POST' && route.body === 'json') };
    return arbitraryRouteCase(postRoutes, { bodies: ['plausible'], auth: ['bearer', 'x-api-key', 'x-goog-api-key', 'query'], wrongMethods: false });
  };

  it(
    'answers bad percent escapes, dot segments, overlong and absolute targets with a JSON error and x-request-id, and stays up',
    async () => {
      await runFuzz('paths', arbitraryHostileTarget(sane()), (c) => runHttpCase(fuzz, c.request, c.expect), PATH_RUNS);
    },
    getFuzzTimeout(PATH_RUNS, 150),
  );

  it(
    'answers CR/LF, NUL, non-ASCII, huge, many and duplicate headers with a JSON error or a normal answer, never calling a vendor for what it must refuse',
    async () => {
      await runFuzz('headers', arbitraryHeadMutation(sane()), (c) => runHttpCase(fuzz, c.request, c.expect), HEADER_RUNS);
    },
    getFuzzTimeout(HEADER_RUNS, 150),
  );
});
