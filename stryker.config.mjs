// Mutation testing of the gateway's core (`npm run mutate`; summary in test/MUTATION.md).
// A partial run: `npx stryker run --mutate src/errors.ts,src/sse/**/*.ts` and, to run fewer tests,
// `MUTATE_TESTS='test/sse/**/*.test.ts,test/errors/**/*.test.ts'`.
// One folder with the tests that cover it: `MUTATE_SET=routing npm run mutate` (see SETS); each set has
// its own temp folder and report, so two sets can run side by side.

/**
 * The core, folder by folder, with the tests that reach it. With the whole suite every end-to-end test
 * covers every runtime mutant (a full run was estimated at 14 hours on 2 cores); these sets are the unit,
 * refusal and hardening tests that name each behaviour.
 */
const SETS = {
  transforms: { mutate: ['src/transforms/**/*.ts'], tests: ['test/transforms/**/*.test.ts'] },
  routing: { mutate: ['src/routing/**/*.ts'], tests: ['test/routing/**/*.test.ts'] },
  limits: { mutate: ['src/limits/**/*.ts'], tests: ['test/limits/**/*.test.ts'] },
  sse: { mutate: ['src/sse/**/*.ts'], tests: ['test/sse/**/*.test.ts'] },
  // The error class, and each style's error body and stream-error frame (in its protocol folder).
  errors: {
    mutate: ['src/errors.ts', 'src/protocols/render-error.ts', 'src/protocols/*/error-body.ts', 'src/protocols/*/style.ts'],
    tests: ['test/errors/**/*.test.ts', 'test/protocols/render-*.test.ts', 'test/e2e/errors.test.ts', 'test/protocols/style-*.test.ts'],
  },
  'auth-body': {
    mutate: ['src/runtime/auth.ts', 'src/runtime/read-body.ts'],
    // read-body.test.ts without its 64 MB uploads (read-body-oversized.test.ts, left out: they time out in the
    // dry run on a loaded machine); body-refusals.test.ts and body-read-failures.test.ts prove read-body's answers.
    tests: ['test/runtime/auth-*.test.ts', 'test/runtime/body-*.test.ts', 'test/runtime/read-body.test.ts', 'test/protocols/style-facts.test.ts', 'test/admin/admin-auth-refusals.test.ts'],
  },
  // The hardening issue's redaction and request-head checks.
  hardening: {
    mutate: [
      'src/runtime/redact.ts',
      'src/runtime/secrets.ts',
      'src/runtime/check-request-head.ts',
      'src/runtime/json-bytes.ts',
    ],
    tests: [
      'test/runtime/redact.test.ts',
      'test/runtime/secrets*.test.ts',
      'test/runtime/check-request-head*.test.ts',
      'test/runtime/json-bytes*.test.ts',
      'test/runtime/multipart-content-type.test.ts',
      'test/logger.test.ts',
    ],
  },
  // The hardening issue's error boundary: answers to broken connections and the request listener's
  // fail, failBare and close handler (the lines of handle-request.ts after `serve`).
  boundary: {
    mutate: ['src/runtime/client-error.ts', 'src/runtime/handle-request.ts:191-313'],
    tests: [
      'test/runtime/client-error*.test.ts',
      'test/runtime/check-request-head.test.ts',
      'test/runtime/error-boundary.test.ts',
      'test/runtime/handle-request*.test.ts',
      'test/runtime/drain.test.ts',
      'test/runtime/body-read-failures.test.ts',
      // The body deadline's 408 in place of the 499 its abort makes (fail's abort reason).
      'test/runtime/body-deadline.test.ts',
      'test/runtime/multipart-deadline.test.ts',
      'test/runtime/reload-snapshots.test.ts',
      'test/runtime/usage-event-fields.test.ts',
      // The close handler's usage estimate (a request ended after its vendor reported part of its usage).
      'test/runtime/usage-estimate-partial-counts.test.ts',
      // The listener's other paths: a client leaving mid-stream (499) and the auxiliary routes (fallback).
      'test/e2e/stream-lifecycle.test.ts',
      'test/admin/readyz.test.ts',
    ],
  },
};

const setName = process.env.MUTATE_SET;
const set = setName ? SETS[setName] : undefined;
if (setName && !set) throw new Error(`MUTATE_SET must be one of ${Object.keys(SETS).join(', ')}`);
// Read by vitest.stryker.config.ts in the test runner processes (they inherit this environment).
if (set && !process.env.MUTATE_TESTS) process.env.MUTATE_TESTS = set.tests.join(',');
const suffix = set ? `-${setName}` : '';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.ts' },
  mutate: set ? set.mutate : Object.values(SETS).flatMap((s) => s.mutate),
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/mutation${suffix}.html` },
  jsonReporter: { fileName: `reports/mutation/mutation${suffix}.json` },
  ignorePatterns: ['reports', 'dist', 'coverage', '.gateway-images', 'bench/*.cpuprofile', '.stryker-tmp*'],
  tempDirName: `.stryker-tmp${suffix}`,
  cleanTempDir: true,
};
