import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { arbitraryRouteCase, describeCase } from './arbitraries-requests.ts';
import { startFuzzGateway, type FuzzGateway } from './fuzz-gateway.ts';
import { getFuzzTimeout, runFuzz } from './fuzz-run.ts';
import { runHttpCase } from './run-case.ts';

const HOSTILE_RUNS = 80;
const TRUNCATED_RUNS = 40;

describe('fuzz: hostile request bodies', () => {
  let fuzz: FuzzGateway;
  beforeAll(async () => {
    fuzz = await startFuzzGateway();
  });
  afterAll(() => fuzz.close());

  it(
    'refuses deep nesting, invalid UTF-8, wrong content types and oversized bodies itself with a readable 4xx in the caller style, and takes huge strings',
    async () => {
      const postRoutes = { ...fuzz.config, routes: fuzz.config.routes.filter((route) => route.method === 'POST') };
      const cases = arbitraryRouteCase(postRoutes, {
        bodies: ['deep', 'invalid-utf8', 'huge-string', 'over-limit', 'mutated', 'not-json'],
        auth: ['bearer', 'x-api-key', 'x-goog-api-key', 'query'],
        wrongMethods: false,
      });
      await runFuzz('bodies', cases, (c) => runHttpCase(fuzz, c.request, c.expect), HOSTILE_RUNS);
    },
    getFuzzTimeout(HOSTILE_RUNS, 200),
  );

  it(
    'survives uploads cut part way (reset or half-closed) without calling a vendor or keeping the request in flight',
    async () => {
      const postRoutes = { ...fuzz.config, routes: fuzz.config.routes.filter((route) => route.method === 'POST') };
      const base = arbitraryRouteCase(postRoutes, { bodies: ['plausible', 'huge-string'], auth: ['bearer', 'x-api-key', 'x-goog-api-key'], wrongMethods: false });
      const cases = fc.tuple(base, fc.double({ min: 0, max: 0.99, noNaN: true }), fc.constantFrom<'end' | 'destroy'>('end', 'destroy')).map(([c, fraction, how]) => {
        const length = c.request.body?.length ?? 0;
        const json = !String(c.request.head).includes('multipart/form-data');
        const expect = { ...c.expect, truncated: true, ...(json ? { rejectBeforeVendor: c.expect.rejectBeforeVendor ?? 'a JSON upload cut part way' } : {}) };
        return describeCase({ ...c.request, cutAfter: Math.floor(length * fraction), cutHow: how }, expect);
      });
      await runFuzz('truncated uploads', cases, (c) => runHttpCase(fuzz, c.request, c.expect), TRUNCATED_RUNS);
    },
    getFuzzTimeout(TRUNCATED_RUNS, 200),
  );
});
