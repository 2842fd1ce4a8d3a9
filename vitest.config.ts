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
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/file-databases.ts'],
    // One PostgreSQL and one Redis serve every file, each file on databases and a queue prefix of its own; query
    // budgets count the statements of one server, so two files can run side by side (much of a file's time is spent
    // waiting for processes it starts).
    pool: 'forks',
    maxWorkers: 2,
    // A fork runs file after file: modules load once per fork, not once per file (each file still starts its servers).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
