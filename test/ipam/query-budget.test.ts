import { budgetSuite, seededServer, type FilteredBudgets, type ListBudgets } from '../helpers/budgets.js';
import { seedDcim } from '../helpers/seed-dcim.js';
import { seedConfiguration } from '../helpers/seed-extras.js';
import { seedIpam } from '../helpers/seed-ipam.js';
import { seedTenancy } from '../helpers/seed.js';

const server = seededServer(async (db) => {
  await seedTenancy(db, 1000);
  await seedDcim(db, 1000);
  await seedIpam(db, 1000);
  await seedConfiguration(db, 1000);
});

/** SQL statements per ipam list request: the same at page sizes 1, 50 and 1000. */
const BUDGETS: ListBudgets = {
  // ipam's fields on dcim models: AS numbers and prefix counts, primary and out-of-band addresses, VLANs and counts.
  '/api/dcim/sites/': { full: 10, brief: 2 },
  '/api/dcim/devices/': { full: 20, brief: 2 },
  '/api/dcim/virtual-device-contexts/': { full: 8, brief: 3 },
  '/api/dcim/interfaces/?ordering=-id': { full: 23, brief: 3 },
  '/api/ipam/route-targets/': { full: 4, brief: 2 },
  '/api/ipam/vrfs/': { full: 9, brief: 3 },
  '/api/ipam/rirs/': { full: 4, brief: 3 },
  '/api/ipam/aggregates/': { full: 5, brief: 2 },
  '/api/ipam/roles/': { full: 4, brief: 3 },
  '/api/ipam/vlan-groups/': { full: 7, brief: 3 },
  '/api/ipam/vlans/': { full: 9, brief: 2 },
  '/api/ipam/prefixes/': { full: 9, brief: 3 },
  '/api/ipam/ip-ranges/': { full: 6, brief: 2 },
  '/api/ipam/ip-addresses/': { full: 11, brief: 2 },
  '/api/ipam/fhrp-groups/': { full: 5, brief: 3 },
  '/api/ipam/fhrp-group-assignments/': { full: 9, brief: 7 },
  '/api/ipam/service-templates/': { full: 3, brief: 2 },
  '/api/ipam/services/': { full: 6, brief: 2 },
  '/api/ipam/vlan-translation-policies/': { full: 7, brief: 2 },
  '/api/ipam/vlan-translation-rules/': { full: 5, brief: 4 },
  '/api/ipam/asn-ranges/': { full: 6, brief: 2 },
  '/api/ipam/asns/': { full: 6, brief: 2 },
};

/** Filters that check the objects they name cost one query each. */
const FILTERED: FilteredBudgets = {
  '/api/ipam/prefixes/': { query: 'within=10.0.0.0/8&mask_length__gte=24&family=4&vrf=65000:1&q=10.0', budget: 10 },
  '/api/ipam/vlans/': { query: 'region=region-1&available_at_site=1&qinq_svlan_vid=100', budget: 11 },
  '/api/ipam/prefixes/?ordering=-id': { query: 'site_id=1&region=region-1&vlan_vid=100&vlan_group=group-1', budget: 12 },
  '/api/ipam/ip-addresses/': { query: 'parent=10.0.0.0/8&address=10.0.1.1&tenant=tenant-1&q=host', budget: 12 },
};

budgetSuite('ipam list query budgets', server, BUDGETS, FILTERED);
