import { defineConfig } from 'vitest/config';

/** `npm run fuzz`: the fuzz suite alone, longer, with a random seed (see test/fuzz/fuzz-run.ts). */
export default defineConfig({
  test: {
    include: ['test/fuzz/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 30_000,
    pool: 'forks',
    env: { FUZZ_LONG: '1' },
  },
});
