import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // One seed for every property test: the suite runs the same cases everywhere (see the file).
    setupFiles: ['test/setup/fast-check-seed.ts'],
  },
});
