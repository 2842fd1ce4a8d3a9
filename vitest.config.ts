import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 ships CommonJS (`main`) and ESM (`module`) builds; Node and graphql-compose load the CommonJS one,
    // vite would pick the other, and two copies of graphql cannot share a schema. One copy, as in production.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // One PostgreSQL and one Redis serve every file; files run one after another so that query counts are exact.
    pool: 'forks',
    fileParallelism: false,
    // One fork runs every file: modules load once, not once per file (each file still starts its own servers).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
