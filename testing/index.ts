/**
 * Patchbay's test kit (`patchbay/testing`), for plugins' tests as for Patchbay's own: a real server on a real
 * PostgreSQL, a client with a superuser's token, users with given permissions, statement budgets, a webhook receiver.
 * It does not import a test runner: failures are thrown errors, which any runner reports.
 */
export { startPatchbay, type RunningPatchbay, type Statement, type Body, type Reply, type RequestOptions, type StartOptions, type TestPatchbay } from './server.js';
export type { TestUser, UserOptions } from './users.js';
export type { Grant } from './permissions.js';
export { PAGE_SIZES, expectListBudget, expectQueries, listStatements } from './budgets.js';
export { WebhookReceiver, type Received } from './receiver.js';
export { createDatabase, dropDatabase, urlOf } from './databases.js';
