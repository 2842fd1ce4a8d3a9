// @ts-check
// JavaScript, not TypeScript: vitest loads its configuration, and what it imports from packages, with Node alone.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
/** @param {string} path */
const at = (path) => fileURLToPath(new URL(path, import.meta.url));

/**
 * A vitest configuration for a plugin's tests: `export default defineConfig(patchbayVitest())`. It starts one
 * PostgreSQL for the run (embedded, or TEST_DATABASE_URL's), resolves `patchbay` to the Patchbay that runs the tests
 * (one copy of the kernel, wherever the plugin is), and loads one copy of graphql, as Patchbay does.
 * @param {Record<string, unknown>} [test] vitest's `test` options over the kit's (global setup, pool, timeouts)
 */
export function patchbayVitest(test = {}) {
  return {
    resolve: {
      alias: [
        // graphql 16 ships CommonJS (`main`) and ESM (`module`) builds; Node and graphql-compose load the CommonJS
        // one, vite would pick the other, and two copies of graphql cannot share a schema.
        { find: /^graphql$/, replacement: require.resolve('graphql') },
        { find: /^patchbay$/, replacement: at('../kernel/index.ts') },
        { find: /^patchbay\/testing$/, replacement: at('./index.ts') },
      ],
    },
    test: {
      globalSetup: [at('./global-setup.ts')],
      // Servers start in the test processes; each file's modules load once per process.
      pool: 'forks',
      testTimeout: 30_000,
      hookTimeout: 120_000,
      ...test,
    },
  };
}
