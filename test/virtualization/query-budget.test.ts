import { budgetSuite, seededServer, type FilteredBudgets, type ListBudgets } from '../helpers/budgets.js';
import { seedDcim } from '../helpers/seed-dcim.js';
import { seedConfiguration } from '../helpers/seed-extras.js';
import { seedIpam } from '../helpers/seed-ipam.js';
import { seedVirtualization } from '../helpers/seed-virtualization.js';
import { seedTenancy } from '../helpers/seed.js';

const server = seededServer(async (db) => {
  await seedTenancy(db, 1000);
  await seedDcim(db, 1000);
  await seedIpam(db, 1000);
  await seedVirtualization(db, 1000);
  await seedConfiguration(db, 1000);
});

/** SQL statements per virtualization list request: the same at page sizes 1, 50 and 1000. */
const BUDGETS: ListBudgets = {
  '/api/virtualization/cluster-types/': { full: 4, brief: 3 },
  '/api/virtualization/cluster-groups/': { full: 4, brief: 3 },
  '/api/virtualization/clusters/': { full: 9, brief: 3 },
  '/api/virtualization/virtual-machines/': { full: 14, brief: 2 },
  '/api/virtualization/interfaces/': { full: 18, brief: 3 },
  '/api/virtualization/virtual-disks/': { full: 4, brief: 3 },
  // What virtualization adds to other apps' lists: device clusters, and the counts of sites, roles, platforms and tenants.
  '/api/dcim/devices/': { full: 21, brief: 2 },
  '/api/dcim/device-roles/?ordering=-parent': { full: 7, brief: 4 },
  '/api/tenancy/tenants/': { full: 5, brief: 2 },
  '/api/ipam/ip-addresses/': { full: 11, brief: 2 },
};

/** Filters that check the objects they name cost one query each. */
const FILTERED: FilteredBudgets = {
  '/api/virtualization/virtual-machines/': { query: 'cluster_group=group-1&region=region-1&mac_address=02:00:00:00:00:01&q=vm&has_primary_ip=true', budget: 16 },
  '/api/virtualization/clusters/': { query: 'site_id=1&region=region-1&type=type-1', budget: 12 },
  '/api/ipam/ip-addresses/': { query: 'virtual_machine_id=1&vminterface=eth1', budget: 6 },
  '/api/ipam/vlans/': { query: 'available_on_virtualmachine=1', budget: 12 },
};

budgetSuite('virtualization list query budgets', server, BUDGETS, FILTERED);
