import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareWithReference } from '../helpers/reference.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * What the reference has that the ipam declarations do not have yet, and what brings it; a name listed here that
 * the server already has fails the test, so the list only shrinks.
 */
const PENDING: Record<string, string[]> = {
  'circuits (issue 13)': ['provider_count', 'provider', 'provider_id'],
  'virtualization (issue 13)': ['virtual_machine', 'virtual_machine_id', 'vminterface', 'vminterface_id', 'available_on_virtualmachine'],
  'L2VPN, an app Patchbay does not have': ['exporting_l2vpn', 'exporting_l2vpn_id', 'importing_l2vpn', 'importing_l2vpn_id', 'l2vpn_termination', 'l2vpn', 'l2vpn_id'],
};
const pending = new Set(Object.values(PENDING).flat());

let t: TestServer;
beforeAll(async () => {
  t = await startServer();
});
afterAll(async () => {
  await t?.close();
});

describe('ipam against the NetBox 4.4 reference', () => {
  it('has every model, brief field, field and filter, but those still to come', () => {
    expect(compareWithReference(t.server, 'ipam', pending)).toEqual({ missing: [], early: [], briefs: [] });
  });
});
