import { defineConfig } from 'vitest/config';

// The package's own tests, run alone (`npm test` here); Patchbay's `npm test` runs them with its own.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
