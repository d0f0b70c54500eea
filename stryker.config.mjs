// Mutation testing of the gateway's core (`npm run mutate`; summary in test/MUTATION.md).
// A partial run: `npx stryker run --mutate src/errors.ts,src/sse/**/*.ts` and, to run fewer tests,
// `MUTATE_TESTS='test/sse/**/*.test.ts,test/errors/**/*.test.ts'`.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.ts' },
  mutate: [
    'src/transforms/**/*.ts',
    'src/routing/**/*.ts',
    'src/limits/**/*.ts',
    'src/sse/**/*.ts',
    'src/runtime/auth.ts',
    'src/runtime/read-body.ts',
    'src/errors.ts',
    // The hardening issue's redaction and error boundary.
    'src/runtime/redact.ts',
    'src/runtime/secrets.ts',
    'src/runtime/client-error.ts',
    'src/runtime/check-request-head.ts',
    'src/runtime/json-bytes.ts',
    'src/runtime/handle-request.ts:185-282',
  ],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  ignorePatterns: ['reports', 'dist', 'coverage', '.gateway-images', 'bench/*.cpuprofile'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
