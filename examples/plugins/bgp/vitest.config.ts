import { defineConfig } from 'vitest/config';
import { patchbayVitest } from 'patchbay/testing/vitest';

// One PostgreSQL for the run (embedded, or TEST_DATABASE_URL's) and `patchbay` resolved to the Patchbay installed.
export default defineConfig(patchbayVitest());
