import { crudSuite, SEEDED } from '../helpers/crud.js';
import { referenceModels } from '../helpers/reference.js';
import { seedDcim } from '../helpers/seed-dcim.js';
import { seedIpam } from '../helpers/seed-ipam.js';
import { seedVirtualization } from '../helpers/seed-virtualization.js';
import { seedTenancy } from '../helpers/seed.js';

crudSuite({
  title: 'every virtualization endpoint',
  keys: Object.keys(referenceModels('virtualization')),
  seed: async (db) => {
    await seedTenancy(db, SEEDED);
    await seedDcim(db, SEEDED);
    await seedIpam(db, SEEDED);
    await seedVirtualization(db, SEEDED);
  },
  prepare: {
    // A copy of a VM has no interfaces: no primary address, and no disk total to match.
    'virtualization.virtualmachine': async () => ({ primary_ip4: null, primary_ip6: null, disk: null }),
    'virtualization.vminterface': async () => ({ primary_mac_address: null, parent: null, bridge: null }),
  },
});
