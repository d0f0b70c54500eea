import { defineConfig } from 'vitest/config';

/**
 * The vitest config of `npm run mutate` (Stryker): the suite except the build-equality test, which
 * compares a fresh build with the committed `generated/` and says nothing about the mutated code, and the
 * fuzz, CLI and bench tests (see `exclude`).
 * `MUTATE_TESTS` (comma-separated globs) narrows the tests for a quick partial run.
 */
const only = process.env.MUTATE_TESTS?.split(',').filter(Boolean);

export default defineConfig({
  test: {
    include: only && only.length > 0 ? only : ['test/**/*.test.ts'],
    // The fuzz files cover every runtime mutant and take 30 s a run, the CLI and bench tests spawn processes:
    // with them a full run was estimated at 14 hours on 2 cores. Each behaviour they find has its own test.
    exclude: ['test/codegen/build.test.ts', 'test/fuzz/**', 'test/cli/**', 'test/bench/**', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
