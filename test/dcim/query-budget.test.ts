import { budgetSuite, seededServer, type FilteredBudgets, type ListBudgets } from '../helpers/budgets.js';
import { seedCabling } from '../helpers/seed-cabling.js';
import { seedDcim } from '../helpers/seed-dcim.js';
import { seedConfiguration } from '../helpers/seed-extras.js';
import { seedTenancy } from '../helpers/seed.js';

const server = seededServer(async (db, patchbay) => {
  await seedTenancy(db, 1000);
  await seedDcim(db, 1000);
  await seedCabling(db, patchbay, 1000);
  await seedConfiguration(db, 1000);
});

/**
 * SQL statements per dcim list request: the same at page sizes 1, 50 and 1000. Trees are read deepest first, so
 * that a page of one holds an object with a parent as larger pages do.
 */
const BUDGETS: ListBudgets = {
  '/api/dcim/regions/?ordering=-parent': { full: 7, brief: 4 },
  '/api/dcim/site-groups/?ordering=-parent': { full: 7, brief: 4 },
  // ipam adds asns: one more query for the page's join rows.
  '/api/dcim/sites/': { full: 9, brief: 2 },
  '/api/dcim/locations/?ordering=-name': { full: 9, brief: 4 },
  '/api/dcim/manufacturers/': { full: 4, brief: 2 },
  '/api/dcim/rack-roles/': { full: 4, brief: 3 },
  '/api/dcim/device-roles/?ordering=-parent': { full: 7, brief: 4 },
  '/api/dcim/platforms/?ordering=-parent': { full: 8, brief: 4 },
  '/api/dcim/rack-types/': { full: 4, brief: 3 },
  '/api/dcim/racks/': { full: 10, brief: 3 },
  '/api/dcim/rack-reservations/': { full: 7, brief: 4 },
  '/api/dcim/power-panels/': { full: 6, brief: 3 },
  '/api/dcim/power-feeds/': { full: 15, brief: 3 },
  '/api/dcim/device-types/': { full: 6, brief: 4 },
  '/api/dcim/module-type-profiles/': { full: 3, brief: 2 },
  '/api/dcim/module-types/': { full: 5, brief: 4 },
  '/api/dcim/inventory-item-roles/': { full: 4, brief: 3 },
  '/api/dcim/console-port-templates/': { full: 4, brief: 2 },
  '/api/dcim/console-server-port-templates/': { full: 4, brief: 2 },
  '/api/dcim/power-port-templates/': { full: 4, brief: 2 },
  '/api/dcim/power-outlet-templates/': { full: 5, brief: 2 },
  '/api/dcim/interface-templates/?ordering=-id': { full: 5, brief: 2 },
  '/api/dcim/rear-port-templates/': { full: 4, brief: 2 },
  '/api/dcim/front-port-templates/': { full: 5, brief: 2 },
  '/api/dcim/module-bay-templates/': { full: 4, brief: 2 },
  '/api/dcim/device-bay-templates/': { full: 4, brief: 2 },
  '/api/dcim/inventory-item-templates/?ordering=-id': { full: 8, brief: 3 },
  '/api/dcim/virtual-chassis/': { full: 7, brief: 4 },
  // Config templates nested, and config contexts merged for the page from one statement.
  '/api/dcim/devices/': { full: 17, brief: 2 },
  '/api/dcim/modules/': { full: 10, brief: 9 },
  '/api/dcim/virtual-device-contexts/': { full: 6, brief: 3 },
  '/api/dcim/mac-addresses/': { full: 6, brief: 2 },
  '/api/dcim/console-ports/': { full: 13, brief: 4 },
  '/api/dcim/console-server-ports/': { full: 13, brief: 4 },
  // The link peers and connected endpoints cost queries per kind of object at the far end (at most one per cabled
  // model): power ports are listed by the kind they reach, outlets (B end) and feeds (A end).
  '/api/dcim/power-ports/?cable_end=B': { full: 13, brief: 4 },
  '/api/dcim/power-ports/?cable_end=A': { full: 11, brief: 4 },
  '/api/dcim/power-outlets/': { full: 16, brief: 4 },
  '/api/dcim/cables/': { full: 10, brief: 2 },
  '/api/dcim/cable-terminations/?termination_type=dcim.interface': { full: 8, brief: 5 },
  // ipam adds tagged_vlans: one more query for the page's join rows.
  '/api/dcim/interfaces/?ordering=-id': { full: 29, brief: 4 },
  '/api/dcim/rear-ports/': { full: 9, brief: 4 },
  '/api/dcim/front-ports/': { full: 12, brief: 4 },
  '/api/dcim/module-bays/': { full: 8, brief: 6 },
  '/api/dcim/device-bays/': { full: 4, brief: 3 },
  '/api/dcim/inventory-items/?ordering=-id': { full: 9, brief: 4 },
};

/** Each filter naming related objects costs one query to check they exist. */
const FILTERED: FilteredBudgets = {
  '/api/dcim/sites/': { query: 'region=region-1&group_id=1&tenant=tenant-6&tenant_group_id=2&status=active&q=site', budget: 13 },
  '/api/dcim/locations/': { query: 'region_id=1&site_group=sitegroup-1&site=site-1&ancestor_id=1', budget: 13 },
  '/api/dcim/devices/': {
    query: 'site=site-1&role=role-1&manufacturer=vendor-1&model=type-1&status=active&has_virtual_device_context=true&mac_address=02:00:00:00:00:01',
    budget: 21,
  },
  '/api/dcim/interfaces/': { query: 'device=device1&site=site-1&device_type=Type%201&device_role=role-1&device_status=active&q=port', budget: 33 },
};

budgetSuite('dcim list query budgets', server, BUDGETS, FILTERED);
