import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareWithReference } from '../helpers/reference.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** What the reference has that later issues bring. */
const PENDING: Record<string, string[]> = {
  'virtualization and circuits (issue 13)': ['circuit_count', 'virtualmachine_count', 'cluster_count'],
};
const pending = new Set(Object.values(PENDING).flat());

let t: TestServer;
beforeAll(async () => {
  t = await startServer();
});
afterAll(async () => {
  await t?.close();
});

describe('tenancy against the NetBox 4.4 reference', () => {
  it('has every model, brief field, field and filter, but those still to come', () => {
    expect(compareWithReference(t.server, 'tenancy', pending)).toEqual({ missing: [], early: [], briefs: [] });
  });
});
