import { afterAll } from 'vitest';
import { dropFileDatabases } from './server.js';

// Registered before the file's own hooks, so it runs after them: its servers are closed by then.
afterAll(dropFileDatabases);
