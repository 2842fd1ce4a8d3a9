import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectFlatWrites, writeStatements } from '../helpers/budgets.js';
import { startServer, type Body, type Reply, type TestServer } from '../helpers/server.js';

let t: TestServer;
let site: Body;
let cluster: Body;
let vlan: Body;
let serial = 0;

beforeAll(async () => {
  t = await startServer();
  ({ body: site } = await t.post('/api/dcim/sites/', { name: 'Budget site', slug: 'budget-site' }));
  const { body: type } = await t.post('/api/virtualization/cluster-types/', { name: 'T', slug: 't' });
  ({ body: cluster } = await t.post('/api/virtualization/clusters/', { name: 'C', type: type.id, scope_type: 'dcim.site', scope_id: site.id }));
  ({ body: vlan } = await t.post('/api/ipam/vlans/', { vid: 10, name: 'ten', site: site.id }));
});
afterAll(async () => {
  await t?.close();
});

const statements = async (status: number, send: () => Promise<Reply>) => (await writeStatements(t, status, send)).count;

describe('virtualization write query budgets', () => {
  // The created VMs are answered with their config context: one statement for all of them.
  it('virtual machines in a cluster at a site (the site taken from the cluster): 10 statements for 1 or 100', async () => {
    await expectFlatWrites(10, async (size) =>
      statements(201, () => t.post('/api/virtualization/virtual-machines/', Array.from({ length: size }, () => ({ name: `vm${serial++}`, cluster: cluster.id, vcpus: 2 })))),
    );
  });

  it('VM interfaces with VLANs of their VM\'s site, and virtual disks (recounting the VM disk size): 20 and 8 statements for 1 or 100', async () => {
    const { body: vms } = await t.post('/api/virtualization/virtual-machines/', Array.from({ length: 100 }, () => ({ name: `host${serial++}`, site: site.id })));
    await expectFlatWrites(20, async (size) =>
      statements(201, () => t.post('/api/virtualization/interfaces/', vms.slice(0, size).map((vm: Body) => ({
        virtual_machine: vm.id, name: `eth${serial++}`, mode: 'tagged', untagged_vlan: vlan.id, tagged_vlans: [vlan.id],
      })))),
    );
    await expectFlatWrites(8, async (size) =>
      statements(201, () => t.post('/api/virtualization/virtual-disks/', vms.slice(0, size).map((vm: Body) => ({ virtual_machine: vm.id, name: `disk${serial++}`, size: 10 })))),
    );
  });
});
