import { defineConfig } from 'vitest/config';

/**
 * The vitest config of `npm run mutate` (Stryker): the whole suite except the build-equality test, which
 * compares a fresh build with the committed `generated/` and says nothing about the mutated code.
 * `MUTATE_TESTS` (comma-separated globs) narrows the tests for a quick partial run.
 */
const only = process.env.MUTATE_TESTS?.split(',').filter(Boolean);

export default defineConfig({
  test: {
    include: only && only.length > 0 ? only : ['test/**/*.test.ts'],
    exclude: ['test/codegen/build.test.ts', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
